import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceCustomerClock, customerClockNow } from '../../src/modules/aggregation/clock.service.js';
import { refreshLogin, waitForLease } from '../../src/modules/aggregation/refresh.service.js';
import { getCustomerForPartner } from '../../src/modules/customers/service.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { allTransactions, DAY, linkProfile, nowOf, refresh, type AccountJson, type TransactionJson } from '../helpers/aggregation.js';

describe('refreshing accounts', () => {
  let ctx: TestContext;
  let partner: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
  });
  afterAll(() => ctx.close());

  const db = () => ctx.runtime.database.kysely;
  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    ctx.app.inject({ method, url, headers: partner.headers, ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}) });
  const eventsOf = async (customerId: string, afterId = 0) =>
    (
      await db().selectFrom('aggregation_events').selectAll().where('customer_id', '=', Number(customerId)).where('id', '>', afterId).orderBy('id').execute()
    ).map((e) => ({ ...e, record: JSON.parse(e.record) as Record<string, unknown> }));
  const lastEventId = async () =>
    Number(
      (
        await db()
          .selectFrom('aggregation_events')
          .select((eb) => eb.fn.max('id').as('m'))
          .executeTakeFirst()
      )?.m ?? 0,
    );
  const window = (customerNow: number) => ({ fromDate: customerNow - 800 * DAY, toDate: customerNow + DAY });
  const customerNow = (customerId: string) => customerClockNow(ctx.app.engine, partner.partnerId, customerId);

  it('requires an initial aggregation before transactions can be read, then loads 180 days', async () => {
    const customerId = await addCustomer(ctx, partner);
    const [checking] = await linkProfile(ctx, partner, customerId, 'profile_01');
    const v4 = await inject('GET', `/aggregation/v4/customers/${customerId}/accounts/${checking!.id}/transactions?fromDate=0&toDate=${nowOf(ctx)}`);
    expect(v4.statusCode).toBe(409);
    expect(v4.json().code).toBe('14064');
    const v3 = await inject('GET', `/aggregation/v3/customers/${customerId}/transactions?fromDate=0&toDate=${nowOf(ctx)}`);
    expect(v3.statusCode).toBe(409);
    expect(v3.json().code).toBe('14064');

    const accounts = await refresh(ctx, partner, customerId);
    const now = nowOf(ctx);
    for (const a of accounts) {
      expect(a).toMatchObject({ aggregationStatusCode: 0, aggregationAttemptDate: now, aggregationSuccessDate: now });
      expect(a.oldestTransactionDate as number).toBeGreaterThanOrEqual(now - 180 * DAY);
      expect(a.oldestTransactionDate as number).toBeLessThan(now - 150 * DAY);
      expect(a.lastTransactionDate as number).toBeLessThanOrEqual(now);
    }
    const txs = await allTransactions(ctx, partner, customerId, window(now));
    expect(txs.length).toBeGreaterThan(50);
    // A window with none of them: an empty list, not the 409 (an empty page is where the accounts are asked).
    const none = await inject('GET', `/aggregation/v3/customers/${customerId}/transactions?fromDate=0&toDate=1`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toMatchObject({ found: 0, displaying: 0, transactions: [] });
    for (const t of txs) {
      expect(t.categorization).toMatchObject({
        normalizedPayeeName: expect.any(String),
        category: expect.any(String),
        bestRepresentation: expect.any(String),
        country: expect.stringMatching(/^[A-Z]{3}$/),
      });
      expect(t.createdDate).toBe(now);
    }
    const one = await inject('GET', `/aggregation/v2/customers/${customerId}/transactions/${txs[0]!.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(txs[0]);
    // Every stored transaction has a `created` event carrying the push-only amounts.
    const created = (await eventsOf(customerId)).filter((e) => e.class === 'transaction' && e.type === 'created');
    expect(created).toHaveLength(txs.length);
    expect(created[0]!.record).toMatchObject({
      bonusAmount: expect.any(Number),
      escrowAmount: expect.any(Number),
      feeAmount: expect.any(Number),
      interestAmount: expect.any(Number),
      principalAmount: expect.any(Number),
      unitQuantity: expect.any(Number),
      unitValue: expect.any(Number),
    });
  });

  it("moves a customer's clock ahead only, for that partner's customer only", async () => {
    const customerId = await addCustomer(ctx, partner);
    const other = await partnerWithToken(ctx);
    expect(await advanceCustomerClock(ctx.app.engine, partner.partnerId, customerId, 3 * DAY)).toBe(nowOf(ctx) + 3 * DAY);
    expect(await customerClockNow(ctx.app.engine, partner.partnerId, customerId)).toBe(nowOf(ctx) + 3 * DAY);
    await expect(advanceCustomerClock(ctx.app.engine, partner.partnerId, customerId, -1)).rejects.toMatchObject({ code: '10010' });
    await expect(advanceCustomerClock(ctx.app.engine, partner.partnerId, customerId, 1.5)).rejects.toMatchObject({ code: '10010' });
    await expect(advanceCustomerClock(ctx.app.engine, other.partnerId, customerId, DAY)).rejects.toMatchObject({ status: 404 });
    expect(await customerClockNow(ctx.app.engine, partner.partnerId, customerId)).toBe(nowOf(ctx) + 3 * DAY);
  });

  it('gives two customers with the same profile identical transactions', async () => {
    // Ids differ between customers: a transfer's other side is named by its place in the list instead.
    const strip = (list: TransactionJson[]) => {
      const at = new Map(list.map((t, i) => [t.id, i]));
      return list.map((t) => {
        const { id: _i, accountId: _a, customerId: _c, transferTransactionId, ...rest } = t;
        return { ...rest, ...(transferTransactionId === undefined ? {} : { transferAt: at.get(transferTransactionId as number) }) };
      });
    };
    const a = await addCustomer(ctx, partner);
    const b = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, a, 'retiree');
    await linkProfile(ctx, partner, b, 'retiree');
    await refresh(ctx, partner, a);
    await refresh(ctx, partner, b);
    const ta = await allTransactions(ctx, partner, a, window(nowOf(ctx)));
    const tb = await allTransactions(ctx, partner, b, window(nowOf(ctx)));
    expect(ta.length).toBeGreaterThan(0);
    expect(strip(tb)).toEqual(strip(ta));
    expect(ta.some((t) => t.transferTransactionId !== undefined)).toBe(true);
  });

  it('finds new transactions and posts pending ones after the clock moves on, recording events', async () => {
    const customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'profile_04');
    await refresh(ctx, partner, customerId);
    const before = await allTransactions(ctx, partner, customerId, window(await customerNow(customerId)));
    const pending = before.filter((t) => t.status === 'pending');
    expect(pending.length).toBeGreaterThan(0);
    const mark = await lastEventId();

    await advanceCustomerClock(ctx.app.engine, partner.partnerId, customerId, 5 * DAY);
    const accounts = await refresh(ctx, partner, customerId);
    const now = await customerNow(customerId);
    expect(accounts.every((a) => a.aggregationSuccessDate === now)).toBe(true);
    const after = await allTransactions(ctx, partner, customerId, window(now));
    const afterById = new Map(after.map((t) => [t.id, t]));
    // Pending ones posted under the same id (or were dropped by the institution), never duplicated.
    for (const p of pending) {
      const now_ = afterById.get(p.id);
      if (now_) expect(now_.status === 'active' ? typeof now_.postedDate : 'pending').toBe(now_.status === 'active' ? 'number' : 'pending');
    }
    expect(pending.some((p) => afterById.get(p.id)?.status === 'active')).toBe(true);
    const fresh = after.filter((t) => !before.some((b) => b.id === t.id));
    expect(fresh.length).toBeGreaterThan(10);
    expect(fresh.every((t) => t.transactionDate > now - 6 * DAY - 10 * DAY)).toBe(true);
    expect(new Set(after.map((t) => t.id)).size).toBe(after.length);

    const events = await eventsOf(customerId, mark);
    const kinds = (cls: string, type: string) => events.filter((e) => e.class === cls && e.type === type);
    expect(
      kinds('transaction', 'created')
        .map((e) => e.record.id)
        .sort(),
    ).toEqual(fresh.map((t) => t.id).sort());
    const modified = kinds('transaction', 'modified');
    expect(modified.length).toBeGreaterThan(0);
    for (const e of modified) expect(afterById.get(e.record.id as number)).toMatchObject({ status: e.record.status, amount: e.record.amount });
    expect(kinds('account', 'modified').length).toBeGreaterThan(0);
    const deleted = kinds('transaction', 'deleted');
    for (const e of deleted) expect(afterById.has(e.record.id as number)).toBe(false);
    expect(before.length + fresh.length - deleted.length).toBe(after.length);

    // Nothing changed: a second refresh stores nothing and records no event.
    const quiet = await lastEventId();
    await refresh(ctx, partner, customerId);
    expect(await eventsOf(customerId, quiet)).toEqual([]);
  });

  it('stores nothing twice when refreshes of one customer run at the same time', async () => {
    const customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'profile_03');
    await linkProfile(ctx, partner, customerId, 'small_business', 102106);
    const results = await Promise.all(Array.from({ length: 5 }, () => inject('POST', `/aggregation/v1/customers/${customerId}/accounts`, {})));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const bodies = results.map((r) => r.json<{ accounts: AccountJson[] }>().accounts);
    for (const b of bodies) expect(b).toEqual(bodies[0]);
    const rows = await db().selectFrom('transactions').select(['account_id', 'ref']).where('customer_id', '=', Number(customerId)).execute();
    expect(new Set(rows.map((r) => `${r.account_id}:${r.ref}`)).size).toBe(rows.length);
    const created = (await eventsOf(customerId)).filter((e) => e.class === 'transaction' && e.type === 'created');
    expect(created).toHaveLength(rows.length);
    expect(new Set(created.map((e) => e.record.id)).size).toBe(rows.length);
  });

  it('answers 409 (325) when another refresh holds the login longer than the wait, and v2 then leaves it alone', async () => {
    const customerId = await addCustomer(ctx, partner);
    const [account] = await linkProfile(ctx, partner, customerId, 'profile_01');
    await db()
      .updateTable('institution_logins')
      .set({ refresh_lease_until: nowOf(ctx) + 60, refresh_lease_owner: 'another-process' })
      .where('id', '=', account!.institutionLoginId)
      .execute();
    const wait = ctx.app.engine.settings.refreshWaitMs;
    ctx.app.engine.settings.refreshWaitMs = 100;
    try {
      const res = await inject('POST', `/aggregation/v1/customers/${customerId}/accounts`, {});
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('325');
      expect((await inject('POST', `/aggregation/v2/customers/${customerId}/accounts`)).statusCode).toBe(204);
      await ctx.app.engine.idle();
      const row = await db().selectFrom('accounts').selectAll().where('id', '=', Number(account!.id)).executeTakeFirstOrThrow();
      expect(row.first_aggregated_at).toBeNull();
      // A lease that ran out (its process died) is taken over.
      await db()
        .updateTable('institution_logins')
        .set({ refresh_lease_until: nowOf(ctx) - 1 })
        .where('id', '=', account!.institutionLoginId)
        .execute();
      expect((await refresh(ctx, partner, customerId))[0]!.aggregationStatusCode).toBe(0);
    } finally {
      ctx.app.engine.settings.refreshWaitMs = wait;
    }
  });

  it('ends the wait for a login deleted meanwhile with 404, instead of asking for its lease forever', async () => {
    const customerId = await addCustomer(ctx, partner);
    const [account] = await linkProfile(ctx, partner, customerId, 'profile_01');
    const customer = await getCustomerForPartner(db(), partner.partnerId, customerId);
    const login = await db().selectFrom('institution_logins').selectAll().where('id', '=', account!.institutionLoginId).executeTakeFirstOrThrow();
    // What a waiting historic load (or an upload's leaseExisting) holds once the customer deleted the login: its
    // row as read before. Its lease can never be taken again, and the wait used to say "free" at once.
    expect((await inject('DELETE', `/aggregation/v1/customers/${customerId}/institutionLogins/${login.id}`)).statusCode).toBe(204);
    await expect(waitForLease(ctx.app.engine, login.id)).rejects.toMatchObject({ errorName: 'ResourceNotFound' });
    await expect(refreshLogin(ctx.app.engine, customer, login, { kind: 'historic', accountId: Number(account!.id) })).rejects.toMatchObject({
      errorName: 'ResourceNotFound',
    });
  });

  it('refreshes in the background with v2 (204) and per institution login', async () => {
    const customerId = await addCustomer(ctx, partner);
    const accounts = await linkProfile(ctx, partner, customerId, 'profile_01');
    const v2 = await inject('POST', `/aggregation/v2/customers/${customerId}/accounts`);
    expect(v2.statusCode).toBe(204);
    await ctx.app.engine.idle();
    const after = (await inject('GET', `/aggregation/v1/customers/${customerId}/accounts`)).json<{ accounts: AccountJson[] }>().accounts;
    expect(after.every((a) => a.aggregationSuccessDate === nowOf(ctx))).toBe(true);

    const loginId = accounts[0]!.institutionLoginId;
    await advanceCustomerClock(ctx.app.engine, partner.partnerId, customerId, DAY);
    const byLogin = await inject('POST', `/aggregation/v1/customers/${customerId}/institutionLogins/${loginId}/accounts?fromDate=0&toDate=${nowOf(ctx)}`);
    expect(byLogin.statusCode).toBe(200);
    expect(byLogin.json().accounts.every((a: AccountJson) => a.aggregationSuccessDate === nowOf(ctx) + DAY)).toBe(true);
    expect((await inject('POST', `/aggregation/v2/customers/${customerId}/institutionLogins/${loginId}/accounts`)).statusCode).toBe(204);
    await ctx.app.engine.idle();
    expect((await inject('POST', `/aggregation/v2/customers/${customerId}/institutionLogins/999/accounts`)).statusCode).toBe(404);
  });

  it('keeps the data and records 103 when a saved sign-in stops working, without asking the institution again', async () => {
    const customerId = await addCustomer(ctx, partner);
    const [account] = await linkProfile(ctx, partner, customerId, 'refresh_103');
    await refresh(ctx, partner, customerId);
    const count = (await allTransactions(ctx, partner, customerId, window(await customerNow(customerId)))).length;
    await advanceCustomerClock(ctx.app.engine, partner.partnerId, customerId, 2 * DAY);
    const failed = await refresh(ctx, partner, customerId);
    const now = await customerNow(customerId);
    expect(failed.every((a) => a.aggregationStatusCode === 103 && a.aggregationAttemptDate === now && a.aggregationSuccessDate! < now)).toBe(true);
    expect((await allTransactions(ctx, partner, customerId, window(now))).length).toBe(count);
    const login = await db().selectFrom('institution_logins').selectAll().where('id', '=', account!.institutionLoginId).executeTakeFirstOrThrow();
    expect(login.aggregation_status_code).toBe(103);

    // The known-bad login is not sent to the institution again: the session is gone, the result is the same.
    await db().updateTable('institution_logins').set({ session_encrypted: 'v1.not.a.session' }).where('id', '=', login.id).execute();
    await advanceCustomerClock(ctx.app.engine, partner.partnerId, customerId, DAY);
    const again = await refresh(ctx, partner, customerId);
    expect(again.every((a) => a.aggregationStatusCode === 103 && a.aggregationAttemptDate === now + DAY)).toBe(true);
    const historic = await inject('POST', `/aggregation/v1/customers/${customerId}/accounts/${account!.id}/transactions/historic`, {});
    expect(historic.statusCode).toBe(400);
    expect(historic.json().code).toBe('103');
  });

  it('gives 108 for refresh_108 and 102 for an institution that went down', async () => {
    const customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'refresh_108');
    await advanceCustomerClock(ctx.app.engine, partner.partnerId, customerId, 2 * DAY);
    expect((await refresh(ctx, partner, customerId)).map((a) => a.aggregationStatusCode)).toEqual([108, 108, 108]);
    const down = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, down, 'profile_01');
    await db().updateTable('institution_logins').set({ institution_id: 102176 }).where('customer_id', '=', Number(down)).execute();
    expect((await refresh(ctx, partner, down)).map((a) => a.aggregationStatusCode)).toEqual([102, 102]);
  });

  it('loads two years of history (counting as the initial aggregation), once unless forced', async () => {
    const customerId = await addCustomer(ctx, partner);
    const [checking, savings] = await linkProfile(ctx, partner, customerId, 'profile_01');
    const url = `/aggregation/v1/customers/${customerId}/accounts/${checking!.id}/transactions/historic`;
    const res = await inject('POST', url, {});
    expect(res.statusCode).toBe(204);
    const now = nowOf(ctx);
    const account = (await inject('GET', `/aggregation/v2/customers/${customerId}/accounts/${checking!.id}`)).json<AccountJson>();
    expect(account.oldestTransactionDate as number).toBeLessThan(now - 700 * DAY);
    expect(account.oldestTransactionDate as number).toBeGreaterThanOrEqual(now - 730 * DAY);
    const v4 = await inject(
      'GET',
      `/aggregation/v4/customers/${customerId}/accounts/${checking!.id}/transactions?fromDate=0&toDate=${now}&limit=1&includePending=true`,
    );
    expect(v4.statusCode).toBe(200);
    // The other account is still waiting for its initial aggregation.
    expect((await inject('GET', `/aggregation/v4/customers/${customerId}/accounts/${savings!.id}/transactions?fromDate=0&toDate=${now}`)).statusCode).toBe(409);
    const v3 = (await inject('GET', `/aggregation/v3/customers/${customerId}/transactions?fromDate=0&toDate=${now}&includePending=true`)).json();
    expect(v3.found).toBe(v4.json().found);
    const mark = await lastEventId();
    expect((await inject('POST', url, {})).statusCode).toBe(204);
    expect((await inject('POST', url)).statusCode).toBe(204);
    expect(await eventsOf(customerId, mark)).toEqual([]);
    expect((await inject('POST', url, { force: true })).statusCode).toBe(204);
    expect((await inject('POST', `/aggregation/v1/customers/${customerId}/accounts/5/transactions/historic`, {})).statusCode).toBe(404);
  });

  it('asks the MFA question again with 203 for a historic load once the remembered device expired', async () => {
    const customerId = await addCustomer(ctx, partner);
    const first = await inject('POST', `/aggregation/v1/customers/${customerId}/institutions/101732/accounts/addall`, {
      credentials: [
        { id: '101732001', value: 'mfa_refresh' },
        { id: '101732002', value: 'mfa_refresh' },
      ],
    });
    const linked = await ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/institutions/101732/accounts/addall/mfa`,
      headers: { ...partner.headers, 'mfa-session': first.headers['mfa-session'] as string },
      payload: { questions: [{ id: 'teacher', answer: 'smith' }] },
    });
    expect([first.statusCode, linked.statusCode]).toEqual([203, 200]);
    await advanceCustomerClock(ctx.app.engine, partner.partnerId, customerId, 2 * DAY);
    const accounts = await refresh(ctx, partner, customerId);
    expect(accounts.map((a) => a.aggregationStatusCode)).toEqual([185, 185, 185]);
    const url = `/aggregation/v1/customers/${customerId}/accounts/${accounts[0]!.id}/transactions/historic`;
    const asked = await inject('POST', url, {});
    expect(asked.statusCode).toBe(203);
    expect(asked.json().questions[0]).toMatchObject({ id: 'teacher' });
    const answered = await ctx.app.inject({
      method: 'POST',
      url: `${url}/mfa`,
      headers: { ...partner.headers, 'mfa-session': asked.headers['mfa-session'] as string },
      payload: { questions: [{ id: 'teacher', answer: 'Smith' }] },
    });
    expect(answered.statusCode).toBe(204);
    const after = (await inject('GET', `/aggregation/v2/customers/${customerId}/accounts/${accounts[0]!.id}`)).json<AccountJson>();
    expect(after.aggregationStatusCode).toBe(0);
    expect(after.oldestTransactionDate as number).toBeLessThan((await customerNow(customerId)) - 700 * DAY);
  });
});
