import { CompiledQuery, type Compilable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTransactionsQuery, transactionPageQuery, type PageWindow, type TransactionScope } from '../../src/modules/aggregation/transactions.repository.js';
import type { Executor } from '../../src/platform/db/database.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { testDialect } from '../helpers/db.js';

/**
 * The transaction list is the busiest read: its page and its count must walk the (scope, effective_date, id, status)
 * index in the asked order, on both dialects, never scanning the table or sorting. The planners are asked directly.
 * PostgreSQL may prefer a sequential scan of a small table, so sequential scans are turned off while asking: what is
 * checked is that an index plan without a sort exists, which is what a large table gets.
 */
describe('the transaction page query plan', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  async function plan(query: Compilable<unknown>): Promise<string> {
    const compiled = query.compile();
    const db = ctx.runtime.database.kysely as Executor;
    if (testDialect() === 'sqlite') {
      const rows = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
      return rows.rows.map((r) => r.detail).join('\n');
    }
    return db.connection().execute(async (conn) => {
      await conn.executeQuery(CompiledQuery.raw('set enable_seqscan = off'));
      try {
        const rows = await conn.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
        return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await conn.executeQuery(CompiledQuery.raw('reset enable_seqscan'));
      }
    });
  }

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
          expectIndexWalk(await plan(transactionPageQuery(ctx.runtime.database.kysely, scope, window, 50)), index);
          expectIndexWalk(await plan(countTransactionsQuery(ctx.runtime.database.kysely, scope, window)), index);
        });
});
