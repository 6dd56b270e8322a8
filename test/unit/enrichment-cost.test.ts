import { describe, expect, it } from 'vitest';
import { MAX_ENRICH_TRANSACTIONS } from '../../src/contract/schemas/enrichment.js';
import { enrichTransactions } from '../../src/modules/enrichment/enrich.service.js';
import { bestTime } from '../helpers/cost.js';

/** Letters only (digits would drop a word), different for every n. */
function word(n: number): string {
  let s = '';
  do {
    s += String.fromCharCode(65 + (n % 26));
    n = Math.floor(n / 26);
  } while (n > 0);
  return `W${s}`;
}

/** `count` transactions whose descriptions and memos are as long as allowed, all different (none from a memo). */
function batch(count: number, offset: number) {
  return Array.from({ length: count }, (_, i) => {
    const words = Array.from({ length: 200 }, (_, w) => word((offset + i) * 200 + w));
    return {
      externalCustomerId: 'c',
      externalAccountId: 'a',
      accountType: 'checking',
      externalTransactionId: `T${i}`,
      transactionTimestamp: '2026-01-12T11:00:00Z',
      description: words.join(' ').slice(0, 1024),
      memo: words.reverse().join(' ').slice(0, 511),
      amount: -1,
    };
  });
}

describe('the cost of an enrichment request', () => {
  it('grows with the number of transactions, each at the same cost however many there are', () => {
    const small = batch(MAX_ENRICH_TRANSACTIONS / 10, 0);
    const large = batch(MAX_ENRICH_TRANSACTIONS, 1_000);
    expect(large[0]!.description.length).toBe(1024);
    bestTime(enrichTransactions, batch(20, 5_000), 3);
    const perSmall = bestTime(enrichTransactions, small, 5).ms / small.length;
    const perLarge = bestTime(enrichTransactions, large, 5).ms / large.length;
    expect(perLarge / perSmall, `per transaction: ${perLarge.toFixed(3)} ms of 1000, ${perSmall.toFixed(3)} ms of 100`).toBeLessThan(2);
  });
});
