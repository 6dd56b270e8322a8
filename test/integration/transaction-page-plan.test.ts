import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countedPageQuery,
  countTransactionsQuery,
  earliestPendingQuery,
  transactionPageQuery,
  type PageWindow,
  type TransactionScope,
} from '../../src/modules/aggregation/transactions.repository.js';
import { unpairedWithAmountsQuery } from '../../src/modules/aggregation/transfers.repository.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { explainPlan, testDialect } from '../helpers/db.js';

/**
 * The transaction list is the busiest read: its page and its count (alone, and as one statement) must walk the
 * (scope, effective_date, id, status) index in the asked order, on both dialects, never scanning the table or sorting. The planners are asked directly.
 * PostgreSQL may prefer a sequential scan of a small table, so sequential scans are turned off while asking: what is
 * checked is that an index plan without a sort exists, which is what a large table gets.
 */
describe('the transaction page query plan', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  function expectIndexWalk(text: string, index: string): void {
    expect(text).toContain(index);
    if (testDialect() === 'sqlite') {
      expect(text).not.toMatch(/TEMP B-TREE/);
      expect(text).not.toMatch(/^SCAN transactions\b/m);
    } else {
      expect(text).not.toMatch(/\bSort\b/);
      expect(text).not.toMatch(/Seq Scan/);
    }
  }

  const scopes: [TransactionScope, string][] = [
    [{ column: 'customer_id', id: 1005000000 }, 'transactions_customer_date'],
    [{ column: 'account_id', id: 5011000000 }, 'transactions_account_date'],
  ];
  for (const [scope, index] of scopes)
    for (const sort of ['asc', 'desc'] as const)
      for (const includePending of [false, true])
        it(`walks ${index} for a ${sort} page ${includePending ? 'with' : 'without'} pending transactions, and counts from it`, async () => {
          const window: PageWindow = { fromDate: 1_600_000_000, toDate: 1_800_000_000, includePending, sort, limit: 25 };
          expectIndexWalk(await explainPlan(ctx.runtime.database.kysely, transactionPageQuery(ctx.runtime.database.kysely, scope, window, 50)), index);
          expectIndexWalk(await explainPlan(ctx.runtime.database.kysely, countTransactionsQuery(ctx.runtime.database.kysely, scope, window)), index);
          // The page with its count in one statement (what a list runs): both walks, still no sort and no scan.
          expectIndexWalk(await explainPlan(ctx.runtime.database.kysely, countedPageQuery(ctx.runtime.database.kysely, scope, window, 50)), index);
        });

  // Pairing transfers asks this for every slice of an upload; by customer and date alone it read the whole window.
  it('looks transfer candidates up by customer, amount and date', async () => {
    for (const amounts of [[12.5], [12.5, -40, 7], Array.from({ length: 400 }, (_, i) => i - 199.5)]) {
      const text = await explainPlan(
        ctx.runtime.database.kysely,
        unpairedWithAmountsQuery(ctx.runtime.database.kysely, 1005000000, 1_600_000_000, 1_700_000_000, amounts),
      );
      expectIndexWalk(text, 'transactions_transfer_candidates');
      if (testDialect() === 'sqlite') expect(text).toMatch(/customer_id=\? AND amount=\? AND effective_date>\? AND effective_date<\?/);
    }
  });

  // Every refresh asks it of every account: the partial index holds only the pending ones.
  it("finds an account's earliest pending transaction in the partial index of pending transactions", async () => {
    const text = await explainPlan(ctx.runtime.database.kysely, earliestPendingQuery(ctx.runtime.database.kysely, 5011000000));
    expect(text).toContain('transactions_pending');
    if (testDialect() === 'sqlite') expect(text).not.toContain('transactions_account_date');
  });
});
