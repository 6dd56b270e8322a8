import { describe, expect, it } from 'vitest';
import { type StatementDocument, writeStatementPdf } from '../../src/modules/statements/pdf.js';
import { MAX_STATEMENT_TRANSACTIONS } from '../../src/modules/statements/service.js';

const MARCH = Date.UTC(2026, 2, 1) / 1000;

/** A month's statement of `count` transactions with long descriptions, each cut to its column. */
function statement(count: number): StatementDocument {
  return {
    institution: 'FinBank',
    accountName: 'Everyday Checking',
    accountNumber: 'XXXXXX4321',
    accountType: 'checking',
    owner: 'Jordan Lee',
    currency: 'USD',
    period: { start: MARCH, end: MARCH + 31 * 86_400 - 1 },
    periodSource: 'A calendar month.',
    opening: 1000,
    closing: 1000 - count,
    credits: { count: 0, total: 0 },
    debits: { count, total: -count },
    lines: Array.from({ length: count }, (_, i) => ({
      date: MARCH + (i % 31) * 86_400,
      description: `CARD PURCHASE ${i} CORNER GROCER MAIN STREET SPRINGFIELD AND A VERY LONG MERCHANT NAME ${'X'.repeat(i % 40)}`,
      amount: -1,
      balance: 999 - i,
    })),
    total: count,
    generatedAt: MARCH + 31 * 86_400 - 1,
  };
}

/** The whole time of writing it, and the median stretch it held the event loop without letting anything else run. */
async function measure(document: StatementDocument): Promise<{ ms: number; hold: number }> {
  const holds: number[] = [];
  let last = performance.now();
  let running = true;
  const ticker = (async () => {
    while (running) {
      await new Promise((resolve) => setImmediate(resolve));
      const now = performance.now();
      holds.push(now - last);
      last = now;
    }
  })();
  const started = performance.now();
  await writeStatementPdf(document);
  const ms = performance.now() - started;
  running = false;
  await ticker;
  // The median: a garbage collection now and then lands in a slice of either length.
  holds.sort((a, b) => a - b);
  return { ms, hold: holds[holds.length >> 1]! };
}

describe('the cost of a statement', () => {
  it('grows with its transactions at the same cost each, and holds the event loop as briefly for thousands as for a few pages', async () => {
    const small = statement(MAX_STATEMENT_TRANSACTIONS / 10);
    const large = statement(MAX_STATEMENT_TRANSACTIONS);
    await measure(statement(100));
    let best = { small: { ms: Infinity, hold: Infinity }, large: { ms: Infinity, hold: Infinity } };
    for (let round = 0; round < 3; round++) {
      const s = await measure(small);
      const l = await measure(large);
      best = {
        small: { ms: Math.min(best.small.ms, s.ms), hold: Math.min(best.small.hold, s.hold) },
        large: { ms: Math.min(best.large.ms, l.ms), hold: Math.min(best.large.hold, l.hold) },
      };
    }
    const perSmall = best.small.ms / small.lines.length;
    const perLarge = best.large.ms / large.lines.length;
    expect(
      perLarge / perSmall,
      `per transaction: ${perLarge.toFixed(3)} ms of ${large.lines.length}, ${perSmall.toFixed(3)} ms of ${small.lines.length}`,
    ).toBeLessThan(2);
    // A few lines at a time: a slice holds the event loop as long whatever the length.
    expect(
      best.large.hold / best.small.hold,
      `hold: ${best.large.hold.toFixed(1)} ms of ${large.lines.length}, ${best.small.hold.toFixed(1)} ms of ${small.lines.length}`,
    ).toBeLessThan(2);
  }, 120_000);
});
