import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceCustomerClock } from '../../src/modules/aggregation/clock.service.js';
import { seedCustomers, type SeedProgress } from '../../src/modules/sandbox/seed.service.js';
import { allTransactions, DAY, nowOf, refresh, type AccountJson, type TransactionJson } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';

describe('seeding customers with a linked test profile', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let other: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    other = await partnerWithToken(ctx);
  });
  afterAll(() => ctx.close());

  const accountsOf = async (p: TestPartner, id: number) => {
    const res = await ctx.app.inject({ method: 'GET', url: `/aggregation/v1/customers/${id}/accounts`, headers: p.headers });
    return { status: res.statusCode, accounts: res.statusCode === 200 ? res.json<{ accounts: AccountJson[] }>().accounts : [] };
  };
  const comparable = (a: AccountJson) => ({
    name: a.name,
    type: a.type,
    balance: a.balance,
    number: a.number,
    detail: a.detail,
    position: (a.position ?? []).map(({ id: _id, ...rest }) => rest),
  });
  const sameTransaction = (t: TransactionJson) => ({
    amount: t.amount,
    status: t.status,
    transactionDate: t.transactionDate,
    postedDate: t.postedDate,
    description: t.description,
    categorization: t.categorization,
  });

  it('adds N customers whose accounts and transactions equal those of a customer that linked the profile', async () => {
    const progress: SeedProgress[] = [];
    const result = await seedCustomers(ctx.runtime, {
      partnerId: partner.partnerId,
      plan: 'testdrive',
      customers: 23,
      profile: 'profile_02',
      batchSize: 5,
      usernamePrefix: 'seeded',
      onProgress: (p) => progress.push(p),
    });
    expect(result.customers).toBe(23);
    expect(result.accountsPerCustomer).toBeGreaterThan(3);
    expect(result.transactionsPerCustomer).toBeGreaterThan(50);
    expect(progress.map((p) => p.customers)).toEqual([1, 6, 11, 16, 21, 23]);
    expect(progress.at(-1)!.transactions).toBe(23 * result.transactionsPerCustomer);

    const list = await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/customers?search=seeded&limit=100', headers: partner.headers });
    const customers = list.json<{ customers: Array<{ id: string; username: string }> }>().customers;
    expect(customers).toHaveLength(23);
    expect(customers.map((c) => c.username).sort()[22]).toBe('seeded_0000023');

    const now = nowOf(ctx);
    const first = await accountsOf(partner, result.firstCustomerId);
    const last = await accountsOf(partner, result.lastCustomerId);
    expect(last.accounts.map(comparable)).toEqual(first.accounts.map(comparable));
    const firstIds = new Set(first.accounts.map((a) => a.id));
    expect(last.accounts.filter((a) => firstIds.has(a.id))).toEqual([]);
    const range = { fromDate: now - 365 * DAY, toDate: now };
    const firstTx = await allTransactions(ctx, partner, String(result.firstCustomerId), range);
    const lastTx = await allTransactions(ctx, partner, String(result.lastCustomerId), range);
    expect(lastTx).toHaveLength(result.transactionsPerCustomer);
    expect(lastTx.map(sameTransaction)).toEqual(firstTx.map(sameTransaction));
    const lastAccountIds = new Set(last.accounts.map((a) => Number(a.id)));
    expect(lastTx.every((t) => lastAccountIds.has(Number(t.accountId)))).toBe(true);
    // A copy names no transaction of the template customer's: its transfers are not linked as pairs.
    expect(lastTx.filter((t) => t.transferTransactionId !== undefined)).toEqual([]);
  });

  it('leaves PostgreSQL with fresh statistics and visibility for the tables it filled, as autovacuum would later', async () => {
    if (ctx.runtime.database.dialect !== 'postgres') return;
    const before = Date.now();
    await seedCustomers(ctx.runtime, { partnerId: partner.partnerId, plan: 'testdrive', customers: 3, profile: 'profile_02', usernamePrefix: 'settled' });
    const { rows } = await sql<{ relname: string; vacuumed: Date | null; analyzed: Date | null }>`
      select relname, last_vacuum as vacuumed, last_analyze as analyzed from pg_stat_user_tables
      where schemaname = current_schema() and relname in ('customers', 'institution_logins', 'accounts', 'positions', 'transactions')`.execute(
      ctx.runtime.database.kysely,
    );
    expect(rows.map((r) => r.relname).sort()).toEqual(['accounts', 'customers', 'institution_logins', 'positions', 'transactions']);
    // The statistics views lag by up to the stats flush interval; the times are the server's.
    for (const r of rows) {
      expect(r.vacuumed?.getTime() ?? 0).toBeGreaterThan(before - 60_000);
      expect(r.analyzed?.getTime() ?? 0).toBeGreaterThan(before - 60_000);
    }
  });

  it('leaves seeded customers working like any other: they refresh, and other partners cannot see them', async () => {
    const result = await seedCustomers(ctx.runtime, {
      partnerId: partner.partnerId,
      plan: 'testdrive',
      customers: 3,
      profile: 'profile_01',
      usernamePrefix: 'refreshable',
    });
    await advanceCustomerClock(ctx.app.engine, partner.partnerId, result.lastCustomerId, 3 * DAY);
    const accounts = await refresh(ctx, partner, String(result.lastCustomerId));
    expect(accounts.length).toBe(result.accountsPerCustomer);
    expect(accounts.every((a) => a.aggregationStatusCode === 0)).toBe(true);
    expect((await accountsOf(other, result.lastCustomerId)).status).toBe(404);
  });

  it("keeps only each customer's N most recent transactions when asked, and copies accounts with none at all", async () => {
    const full = await seedCustomers(ctx.runtime, {
      partnerId: partner.partnerId,
      plan: 'testdrive',
      customers: 1,
      profile: 'profile_01',
      usernamePrefix: 'untrimmed',
    });
    const trimmed = await seedCustomers(ctx.runtime, {
      partnerId: partner.partnerId,
      plan: 'testdrive',
      customers: 4,
      profile: 'profile_01',
      usernamePrefix: 'trimmed',
      transactionsPerCustomer: 30,
      batchSize: 2,
    });
    expect(trimmed.transactionsPerCustomer).toBe(30);
    expect(trimmed.transactions).toBe(120);
    const range = { fromDate: nowOf(ctx) - 365 * DAY, toDate: nowOf(ctx), includePending: true, sort: 'desc' as const };
    const fullTx = await allTransactions(ctx, partner, String(full.firstCustomerId), range);
    expect(fullTx.length).toBeGreaterThan(30);
    const newest = fullTx.slice(0, 30).map(sameTransaction);
    for (const id of [trimmed.firstCustomerId, trimmed.lastCustomerId]) {
      const tx = await allTransactions(ctx, partner, String(id), range);
      expect(tx.map(sameTransaction)).toEqual(newest);
    }

    const none = await seedCustomers(ctx.runtime, {
      partnerId: partner.partnerId,
      plan: 'testdrive',
      customers: 3,
      profile: 'profile_01',
      usernamePrefix: 'empty',
      transactionsPerCustomer: 0,
    });
    expect(none.transactions).toBe(0);
    const last = await accountsOf(partner, none.lastCustomerId);
    expect(last.accounts).toHaveLength(none.accountsPerCustomer);
    expect(await allTransactions(ctx, partner, String(none.lastCustomerId), range)).toEqual([]);
    await expect(
      seedCustomers(ctx.runtime, { partnerId: partner.partnerId, plan: 'testdrive', customers: 1, profile: 'profile_01', transactionsPerCustomer: -1 }),
    ).rejects.toThrow(/0 or more/);
  });

  it('refuses a profile that asks for MFA or cannot sign in, and a count that is not positive', async () => {
    await expect(
      seedCustomers(ctx.runtime, { partnerId: partner.partnerId, plan: 'testdrive', customers: 2, profile: 'mfa_text', usernamePrefix: 'mfa' }),
    ).rejects.toThrow(/asks for MFA/);
    await expect(
      seedCustomers(ctx.runtime, { partnerId: partner.partnerId, plan: 'testdrive', customers: 2, profile: 'nobody_here', usernamePrefix: 'nobody' }),
    ).rejects.toThrow(/cannot sign in/);
    await expect(seedCustomers(ctx.runtime, { partnerId: partner.partnerId, plan: 'testdrive', customers: 0, profile: 'profile_01' })).rejects.toThrow(
      /positive/,
    );
  });
});
