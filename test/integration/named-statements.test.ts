import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectCountedTransactionPage, type PageWindow, type TransactionScope } from '../../src/modules/aggregation/transactions.repository.js';
import type { Database } from '../../src/platform/db/database.js';
import { linkProfile, refresh } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, type TestContext } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { testDialect } from '../helpers/db.js';

/**
 * The statements every request runs (preparedQuery's) are named statements on PostgreSQL: prepared once per
 * connection, then only bound and run (src/platform/db/named-statements.ts). Every transaction page must be the
 * slice of the customer's transactions in date-then-id order, with their count (from the page's own statement, or
 * from the count statement past the end), however often a connection has run those statements before.
 */
describe('transaction pages through named statements', () => {
  let ctx: TestContext;
  let scope: TransactionScope;
  let ordered: number[];
  const window = (sort: 'asc' | 'desc'): PageWindow => ({ fromDate: 0, toDate: 4_000_000_000, includePending: true, sort, limit: 25 });

  beforeAll(async () => {
    ctx = await createTestContext();
    const partner = await partnerWithToken(ctx);
    const customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'profile_01');
    await refresh(ctx, partner, customerId);
    scope = { column: 'customer_id', id: Number(customerId) };
    const rows = await ctx.runtime.database.kysely.selectFrom('transactions').select(['id', 'effective_date']).where('customer_id', '=', scope.id).execute();
    ordered = rows.sort((a, b) => Number(a.effective_date) - Number(b.effective_date) || Number(a.id) - Number(b.id)).map((r) => Number(r.id));
    expect(ordered.length).toBeGreaterThan(100);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const preparedOn = async (conn: Database['kysely']) =>
    testDialect() === 'postgres'
      ? (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by name`.execute(conn)).rows
      : [];

  /** Three pages and one past the end, twice on one connection, with what that connection had prepared before, between and after. */
  const readOnConnection = (database: Database) =>
    database.kysely.connection().execute(async (conn) => {
      const before = await preparedOn(conn);
      const read = async () => {
        const pages = [];
        const found = [];
        for (const offset of [0, 25, 100, ordered.length + 5]) {
          const page = await selectCountedTransactionPage(conn, scope, window('desc'), offset);
          pages.push(page.rows.map((r) => Number(r.id)));
          found.push(page.found);
        }
        return { pages, found };
      };
      const first = await read();
      const between = await preparedOn(conn);
      const second = await read();
      const after = await preparedOn(conn);
      return { first, second, before, between, after };
    });

  it('gives every page as the slice of the customer transactions in date then id order, both directions', async () => {
    const descending = [...ordered].reverse();
    for (const offset of [0, 25, 50, ordered.length - 10, ordered.length, ordered.length + 5]) {
      const desc = await selectCountedTransactionPage(ctx.runtime.database.kysely, scope, window('desc'), offset);
      expect(desc.rows.map((r) => Number(r.id))).toEqual(descending.slice(offset, offset + 25));
      const asc = await selectCountedTransactionPage(ctx.runtime.database.kysely, scope, window('asc'), offset);
      expect(asc.rows.map((r) => Number(r.id))).toEqual(ordered.slice(offset, offset + 25));
      expect([desc.found, asc.found], `offset ${offset}`).toEqual([ordered.length, ordered.length]);
    }
  });

  it('reads the right pages and count on one connection, before and after its statements are prepared', async () => {
    const descending = [...ordered].reverse();
    const named = await readOnConnection(ctx.runtime.database);
    expect(named.first.pages).toEqual([0, 25, 100, ordered.length + 5].map((offset) => descending.slice(offset, offset + 25)));
    expect(named.first.found).toEqual([ordered.length, ordered.length, ordered.length, ordered.length]);
    expect(named.second).toEqual(named.first);
    if (testDialect() !== 'postgres') return;
    // The counted page and the count are prepared at most once on the connection (none, if an earlier request there did),
    // then only run; the page's statement is there by the end.
    const added = named.between.filter((p) => !named.before.some((b) => b.name === p.name));
    expect(added.length).toBeLessThanOrEqual(2);
    expect(named.after).toEqual(named.between);
    expect(named.after.some((p) => p.name.startsWith('ledgerlink_') && /"transactions"/.test(p.statement) && /\boffset\b/i.test(p.statement))).toBe(true);
  });

  it('answers a hundred page reads at once on a pool of five connections, each the right slice', async () => {
    const descending = [...ordered].reverse();
    const offsets = Array.from({ length: 100 }, (_, i) => (i * 7) % ordered.length);
    const pages = await Promise.all(offsets.map((offset) => selectCountedTransactionPage(ctx.runtime.database.kysely, scope, window('desc'), offset)));
    pages.forEach((page, i) => {
      expect(page.rows.map((r) => Number(r.id))).toEqual(descending.slice(offsets[i], offsets[i]! + 25));
      expect(page.found).toBe(ordered.length);
    });
  });
});
