import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectRecurring, payeeKey, type RecurringInput } from '../../src/modules/aggregation/recurring.rules.js';

const DAY = 86_400;
const START = Date.UTC(2025, 0, 6) / 1000;

let nextId = 1;
/** A series: `count` transactions every `every` days from `start`, each moved by `jitter[i]` days and `noise[i]` dollars. */
function series(
  description: string,
  amount: number,
  every: number,
  count: number,
  options: { start?: number; jitter?: number[]; noise?: number[]; accountId?: number } = {},
): RecurringInput[] {
  return Array.from({ length: count }, (_, i) => ({
    id: nextId++,
    accountId: options.accountId ?? 1,
    amount: Math.round((amount + (options.noise?.[i] ?? 0)) * 100) / 100,
    date: (options.start ?? START) + (i * every + (options.jitter?.[i] ?? 0)) * DAY + 12 * 3600,
    description,
    normalizedPayeeName: null,
    category: amount < 0 ? 'Bills & Utilities' : 'Paycheck',
  }));
}

describe('recurring transaction detection', () => {
  it('reduces payee names to the words that name the payee', () => {
    expect(payeeKey('POS DEBIT NETFLIX.COM 866-579-7172 CA')).toBe('netflix ca');
    expect(payeeKey('ACH CREDIT NORTHWIND LOGISTICS PPD ID: 99887766')).toBe('northwind logistics');
    expect(payeeKey('12345 #678')).toBe('');
  });

  it('finds a monthly bill and a biweekly paycheck with their cadence, amounts and next date', () => {
    const rent = series('Rent Oak Apartments', -1450, 30, 6);
    const pay = series('NORTHWIND LOGISTICS PAYROLL', 1850, 14, 10, { jitter: [0, 1, 0, -1, 0, 0, 1, 0, 0, 0] });
    const now = START + 150 * DAY;
    const { outflows, inflows } = detectRecurring([...rent, ...pay], now);
    expect(outflows).toHaveLength(1);
    expect(outflows[0]).toMatchObject({
      cadence: 30,
      countOfTransactions: 6,
      medianHistoricalAmount: 1450,
      expectedNextTransactionAmount: 1450,
      status: 'active',
    });
    expect(outflows[0]!.transactionIds).toEqual(rent.map((t) => t.id));
    expect(inflows).toHaveLength(1);
    expect(inflows[0]).toMatchObject({ cadence: 14, countOfTransactions: 10, normalizedPayeeName: 'NORTHWIND LOGISTICS PAYROLL' });
  });

  it('leaves out one-off purchases at the same payee and irregular spending', () => {
    const gym = series('CITY GYM', -45, 30, 5);
    const oneOff = { ...series('CITY GYM', -400, 1, 1, { start: START + 40 * DAY })[0]! };
    const groceries = [3, 4, 11, 25, 26, 60, 61, 62].map((d, i) => series('FRESH MARKET', -60 - i * 7, 1, 1, { start: START + d * DAY })[0]!);
    const { outflows } = detectRecurring([...gym, oneOff, ...groceries], START + 130 * DAY);
    expect(outflows.map((s) => s.transactionIds)).toEqual([gym.map((t) => t.id)]);
  });

  it('calls a stream inactive once its next transaction is overdue by more than half a cadence', () => {
    const old = series('STREAMFLIX', -15.99, 30, 4);
    const last = old[old.length - 1]!.date;
    expect(detectRecurring(old, last + 40 * DAY).outflows[0]!.status).toBe('active');
    expect(detectRecurring(old, last + 50 * DAY).outflows[0]!.status).toBe('inactive');
  });

  it('finds any steady series among noise, whatever the order of the input (property)', () => {
    const cadences = [7, 14, 30, 91, 365];
    fc.assert(
      fc.property(
        fc.constantFrom(...cadences),
        fc.integer({ min: 3, max: 12 }),
        fc.integer({ min: 500, max: 500_000 }).map((c) => c / 100),
        fc.boolean(),
        fc.array(
          fc.record({
            day: fc.integer({ min: 0, max: 800 }),
            cents: fc.integer({ min: 100, max: 90_000 }),
            shop: fc.constantFrom('ALPHA MART', 'BETA FUEL', 'GAMMA CAFE'),
          }),
          { maxLength: 40 },
        ),
        fc.integer(),
        (every, count, amount, debit, noise, shuffleSeed) => {
          const jitter = Array.from({ length: count }, (_, i) => (every >= 30 ? ((i * 7) % 3) - 1 : 0));
          const wanted = series('STEADY PAYEE', debit ? -amount : amount, every, count, { jitter });
          const others = noise.map((n) => series(n.shop, -n.cents / 100, 1, 1, { start: START + n.day * DAY })[0]!);
          const input = [...wanted, ...others];
          const shuffled = [...input].sort((a, b) => ((a.id * 2654435761) ^ shuffleSeed) - ((b.id * 2654435761) ^ shuffleSeed));
          const now = wanted[wanted.length - 1]!.date + DAY;
          const result = detectRecurring(input, now);
          expect(detectRecurring(shuffled, now)).toEqual(result);
          const streams = debit ? result.outflows : result.inflows;
          const found = streams.find((s) => s.normalizedPayeeName === 'STEADY PAYEE');
          expect(found?.transactionIds).toEqual(wanted.map((t) => t.id));
          expect(Math.abs(found!.cadence - every)).toBeLessThanOrEqual(1);
          // Invariants of every stream.
          const seen = new Set<number>();
          for (const s of [...result.outflows, ...result.inflows]) {
            expect(s.countOfTransactions).toBeGreaterThanOrEqual(3);
            expect(s.countOfTransactions).toBe(s.transactionIds.length);
            expect(s.minimumHistoricalAmount).toBeLessThanOrEqual(s.medianHistoricalAmount);
            expect(s.medianHistoricalAmount).toBeLessThanOrEqual(s.maximumHistoricalAmount);
            expect(s.meanHistoricalAmount).toBeGreaterThanOrEqual(s.minimumHistoricalAmount);
            expect(s.meanHistoricalAmount).toBeLessThanOrEqual(s.maximumHistoricalAmount);
            for (const id of s.transactionIds) {
              expect(seen.has(id)).toBe(false);
              seen.add(id);
              const t = input.find((x) => x.id === id)!;
              expect(t.amount < 0).toBe(s.direction === 'outflow');
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
