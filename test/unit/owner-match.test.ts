import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addressLineScore,
  countryScore,
  editDistance,
  emailScore,
  nameScore,
  normalizeText,
  phoneScore,
  postalCodeScore,
  stateScore,
  tokenSetSimilarity,
  wholeAddress,
} from '../../src/modules/payments/owner-match.rules.js';

describe('owner verification scores', () => {
  it('normalises case, accents, punctuation and ampersands', () => {
    expect(normalizeText('  José  O’Brien-Smith, Jr. ')).toBe('jose o brien smith jr');
    expect(normalizeText('Sam & Taylor')).toBe('sam and taylor');
  });

  it('counts a swap of neighbouring characters as one edit', () => {
    expect(editDistance('0121', '0112')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it.each([
    ['Samuel A Rivera Jr', 'Samuel A Rivera Jr', 100],
    ['rivera samuel', 'Samuel Rivera', 100],
    ['Samuel Rivera Junior', 'Samuel Rivera Jr.', 100],
    ['Sam Rivera', 'Samuel Rivera', 75],
    ['Samuel Rivera', 'Samuel A Rivera Jr', 67],
    ['A', 'Alejandro', 90],
    ['Jordan Lee', 'Samuel A Rivera Jr', 0],
  ])('scores the name %s against %s as %i', (given, stored, expected) => {
    expect(nameScore(given, stored)).toBe(expected);
  });

  it('reads addresses with the postal abbreviations, states by name or code, ZIP+4 as the ZIP', () => {
    expect(addressLineScore('782 Willow Creek Road', '782 Willow Creek Rd')).toBe(100);
    expect(addressLineScore('1458 NORTH Aspen Ridge Drive, Suite 4', '1458 N Aspen Ridge Dr Ste 4')).toBe(100);
    // A house number is equal or not: 728 is another house.
    expect(addressLineScore('728 Willow Creek Rd', '782 Willow Creek Rd')).toBe(75);
    expect(stateScore('Ohio', 'OH')).toBe(100);
    expect(stateScore('oh', 'OH')).toBe(100);
    expect(stateScore('CO', 'OH')).toBe(0);
    expect(postalCodeScore('43214-2210', '43214')).toBe(100);
    expect(postalCodeScore('43215', '43214')).toBe(80);
    expect(postalCodeScore('80211', '43214')).toBe(0);
    expect(countryScore('us', 'US')).toBe(100);
    expect(countryScore('USA', 'US')).toBe(100);
    expect(countryScore('United States', 'US')).toBe(100);
    expect(countryScore('CA', 'US')).toBe(0);
    expect(wholeAddress({ line1: '782 Willow Creek Road', city: 'Columbus', state: 'Ohio', postalCode: '43214-2210' })).toBe(
      '782 Willow Creek Road Columbus oh 43214',
    );
  });

  it('scores phones by slips of the keyboard and e-mail addresses by who before where', () => {
    expect(phoneScore('6145550121', '614-555-0121')).toBe(100);
    expect(phoneScore('16145550121', '614-555-0121')).toBe(100);
    expect(phoneScore('6145550112', '614-555-0121')).toBe(75);
    expect(phoneScore('6145550100', '614-555-0121')).toBe(50);
    expect(phoneScore('7205550183', '614-555-0121')).toBe(0);
    expect(emailScore('Sam.Rivera@Example.com', 'sam.rivera@example.com')).toBe(100);
    expect(emailScore('sam.rivera@example.org', 'sam.rivera@example.com')).toBe(86);
    expect(emailScore('jane@example.com', 'sam.rivera@example.com')).toBe(0);
  });

  it('gives 100 to equal values and stays within 0 to 100, whatever the text', () => {
    const text = fc.string({ maxLength: 40 });
    fc.assert(
      fc.property(text, text, (a, b) => {
        for (const f of [nameScore, addressLineScore, stateScore, countryScore, postalCodeScore, phoneScore, emailScore]) {
          const s = f(a, b);
          expect(Number.isInteger(s) && s >= 0 && s <= 100, `${f.name}(${JSON.stringify(a)}, ${JSON.stringify(b)}) = ${s}`).toBe(true);
        }
        expect(nameScore(a, a)).toBe(100);
        expect(addressLineScore(a, a)).toBe(100);
        expect(emailScore(a, a)).toBe(100);
        expect(phoneScore(a, a)).toBe(100);
        expect(tokenSetSimilarity(normalizeText(a).split(' '), normalizeText(b).split(' '))).toBeCloseTo(
          tokenSetSimilarity(normalizeText(b).split(' '), normalizeText(a).split(' ')),
        );
      }),
    );
  });
});
