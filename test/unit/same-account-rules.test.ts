import { describe, expect, it } from 'vitest';
import { candidateOf, type ExistingAccountFacts, verdictOf } from '../../src/modules/aggregation/account-match.rules.js';
import { type Comparable, DUPLICATE_WINDOW_SECONDS, descriptionKey, pairDuplicates, sameTransaction } from '../../src/modules/aggregation/dedup.rules.js';

const DAY = 86_400;
const existing = (over: Partial<ExistingAccountFacts>): ExistingAccountFacts => ({
  id: 1,
  institutionId: 100,
  number: '000123452632',
  type: 'checking',
  last4: null,
  sharedTransactionIds: 0,
  sharedAmounts: 0,
  comparableAmounts: 0,
  ...over,
});
const tx = (over: Partial<Comparable>): Comparable => ({
  date: 1_790_000_000,
  amount: -12.5,
  description: 'KROGER 512',
  payee: 'Kroger',
  institutionId: null,
  ...over,
});

describe('which existing account an incoming one is', () => {
  it('is certain at the same institution with the same number and type, and asks at another institution', () => {
    const incoming = { institutionId: 100, number: '000123452632', type: 'checking' };
    expect(verdictOf(incoming, [existing({})])).toEqual({ kind: 'same', id: 1, reason: 'accountNumber' });
    expect(verdictOf({ ...incoming, institutionId: 200 }, [existing({})])).toEqual({
      kind: 'ask',
      candidates: [{ id: 1, reason: 'accountNumber', certain: false }],
    });
  });

  it('takes last four and type where one side is masked, and never two full numbers that differ', () => {
    expect(candidateOf({ institutionId: 100, number: 'XXXXXXXX2632', type: 'checking' }, existing({}))).toEqual({ id: 1, reason: 'lastFour', certain: true });
    expect(candidateOf({ institutionId: 100, number: '999999992632', type: 'checking' }, existing({}))).toBeUndefined();
    expect(candidateOf({ institutionId: 100, number: 'XXXX2632', type: 'savings' }, existing({}))).toBeUndefined();
  });

  it('asks about overlapping amounts only where a number is missing, and asks when two accounts match alike', () => {
    const csv = { institutionId: 100, number: '', type: 'checking' };
    expect(candidateOf(csv, existing({ sharedAmounts: 6, comparableAmounts: 10 }))).toEqual({ id: 1, reason: 'amounts', certain: false });
    expect(candidateOf(csv, existing({ sharedAmounts: 1, comparableAmounts: 10 }))).toBeUndefined();
    expect(verdictOf({ institutionId: 100, number: 'XX2632', type: 'checking' }, [existing({}), existing({ id: 2 })]).kind).toBe('ask');
    expect(verdictOf(csv, [existing({})])).toEqual({ kind: 'new' });
  });
});

describe('which transactions of two sources are one', () => {
  it('compares institution ids where both have one, however alike the rest', () => {
    expect(sameTransaction(tx({ institutionId: 'F1' }), tx({ institutionId: 'F1', date: 1_790_000_000 + 30 * DAY }))).toBe(true);
    expect(sameTransaction(tx({ institutionId: 'F1' }), tx({ institutionId: 'F2' }))).toBe(false);
  });

  it('otherwise needs the amount, dates within the window and descriptions that agree', () => {
    expect(sameTransaction(tx({}), tx({ date: 1_790_000_000 + DUPLICATE_WINDOW_SECONDS, description: 'kroger', payee: null }))).toBe(true);
    expect(sameTransaction(tx({}), tx({ date: 1_790_000_000 + DUPLICATE_WINDOW_SECONDS + 1 }))).toBe(false);
    expect(sameTransaction(tx({}), tx({ amount: -12.51 }))).toBe(false);
    expect(sameTransaction(tx({ payee: null }), tx({ description: 'SHELL OIL', payee: null }))).toBe(false);
    expect(descriptionKey('CAFÉ AMÉLIE #0915 Paris')).toBe('cafe amelie paris');
  });

  it('pairs each stored transaction once, the nearest in date first, so two identical coffees stay two', () => {
    const coffee = tx({ description: 'STARBUCKS', payee: 'Starbucks', amount: -4.5 });
    const pairs = pairDuplicates(
      [coffee, { ...coffee, date: coffee.date + DAY }, { ...coffee, date: coffee.date + 2 * DAY }],
      [coffee, { ...coffee, date: coffee.date + DAY }],
    );
    expect([...pairs]).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('pairs as many as can be paired, whatever order the incoming ones come in', () => {
    // The live source dates two coffees ten and seven days ago; a file dates each two days later.
    const coffee = tx({ description: 'STARBUCKS STORE 1203', payee: null, amount: -5.75 });
    const stored = [
      { ...coffee, date: coffee.date - 10 * DAY },
      { ...coffee, date: coffee.date - 7 * DAY },
    ];
    const file = [
      { ...coffee, date: coffee.date - 8 * DAY },
      { ...coffee, date: coffee.date - 5 * DAY },
    ];
    // Oldest first, the first file row's nearest is the later coffee, the only one the second row could take.
    expect([...pairDuplicates(file, stored)]).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect([...pairDuplicates([...file].reverse(), stored)]).toEqual([
      [0, 1],
      [1, 0],
    ]);
    // Where each has a choice, the nearest in date.
    const near = [{ ...coffee, date: coffee.date - 7 * DAY + 3600 }];
    expect([...pairDuplicates(near, stored)]).toEqual([[0, 1]]);
  });
});
