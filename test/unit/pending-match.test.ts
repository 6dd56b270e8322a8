import { describe, expect, it } from 'vitest';
import { descriptionWords, similarDescriptions } from '../../src/modules/aggregation/pending.service.js';

describe('the merchant words a pending and a posted transaction are compared by', () => {
  it('keeps words of three letters or more, folds accents and case, and drops digits and channel words', () => {
    expect([...descriptionWords('CHECKCARD 0915 CAFÉ AMÉLIE #12 POS DEBIT')]).toEqual(['cafe', 'amelie']);
    expect([...descriptionWords('SQ *BLUE BOTTLE COFFEE')]).toEqual(['blue', 'bottle', 'coffee']);
    expect([...descriptionWords('PAYPAL *ACH 1234')]).toEqual([]);
  });

  it('finds the same merchant in a pending description and the posted one that adds the place', () => {
    expect(similarDescriptions({ description: 'OLIVE GARDEN #0042' }, { description: 'OLIVE GARDEN 0042 ORLANDO FL' })).toBe(true);
    expect(similarDescriptions({ description: 'Café Amélie' }, { description: 'CAFE AMELIE PARIS' })).toBe(true);
  });

  it('takes the same payee as the same merchant whatever the descriptions say', () => {
    expect(similarDescriptions({ description: 'AMZN Mktp US*2K4L1', payee: 'Amazon' }, { description: 'AMAZON.COM', payee: 'amazon' })).toBe(true);
  });

  it('does not take a shared channel word for a merchant', () => {
    expect(similarDescriptions({ description: 'POS DEBIT SHELL OIL' }, { description: 'POS DEBIT WALGREENS' })).toBe(false);
    expect(similarDescriptions({ description: 'PAYPAL *SPOTIFY' }, { description: 'PAYPAL *NETFLIX' })).toBe(false);
  });
});
