import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealJson } from '../../src/modules/aggregation/engine.js';
import { SIMPLEFIN_INSTITUTION_ID } from '../../src/connectors/simplefin/index.js';
import { type AccountJson, nowOf } from '../helpers/aggregation.js';
import { appCall, linkFor } from '../helpers/connect.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { demoAccounts, type SimplefinBridge, startSimplefinBridge } from '../helpers/simplefin-bridge.js';

/** Access URLs a broken bridge could hand out: the credentials hold percent-escapes that decode to nothing. */
const malformed = (port: string) => [
  `http://us%zzer:pw@127.0.0.1:${port}/simplefin`,
  `http://user:p%E0%A4%A@127.0.0.1:${port}/simplefin`,
  `http://user:%@127.0.0.1:${port}/simplefin`,
  `http://%ED%A0%80:pw@127.0.0.1:${port}/simplefin`,
];

describe('SimpleFIN access URLs with malformed percent-escapes', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let bridge: SimplefinBridge;
  let port: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx, 'production');
    bridge = await startSimplefinBridge({ now: () => nowOf(ctx) });
    port = new URL(bridge.url).port;
  });
  afterAll(async () => {
    await bridge?.close();
    await ctx?.close();
  });

  const form = (token: string) => [{ id: `${SIMPLEFIN_INSTITUTION_ID}001`, value: token }];
  const addall = (customerId: string, token: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/institutions/${SIMPLEFIN_INSTITUTION_ID}/accounts/addall`,
      headers: partner.headers,
      payload: { credentials: form(token) },
    });
  /** A setup token whose claim the bridge answers (once) with `accessUrl`. */
  const tokenClaimedAs = (accessUrl: string) => {
    const token = bridge.createSetupToken({ accounts: demoAccounts(nowOf(ctx)) });
    bridge.fault({ status: 200, body: accessUrl }, { user: bridge.userOf(token), on: 'claim', times: 1 });
    return token;
  };
  const loginsOf = (customerId: string) =>
    ctx.runtime.database.kysely.selectFrom('institution_logins').selectAll().where('customer_id', '=', Number(customerId)).execute();

  it('answers addall with 424 (aggregation status 102) saying the token is spent, never 500, and stores nothing', async () => {
    for (const accessUrl of malformed(port)) {
      const customerId = await addCustomer(ctx, partner, { type: 'active' });
      const before = bridge.accountRequests().length;
      const res = await addall(customerId, tokenClaimedAs(accessUrl));
      expect([res.statusCode, res.json().code], `${accessUrl}: ${res.body}`).toEqual([424, '102']);
      expect(res.json().message).toMatch(/could not be read \(the claim answer is not an access URL\).*setup token has been used/);
      // The address was refused before any use: no /accounts request, no login.
      expect(bridge.accountRequests().length).toBe(before);
      expect(await loginsOf(customerId)).toEqual([]);
    }
  });

  it('answers the Connect sign-in with a failed step of code 102, never 500', async () => {
    for (const accessUrl of malformed(port)) {
      const customerId = await addCustomer(ctx, partner, { type: 'active' });
      const link = await linkFor(ctx, partner, 'full', { customerId });
      const res = await appCall(ctx, link, 'POST', '/signin', { institutionId: SIMPLEFIN_INSTITUTION_ID, credentials: form(tokenClaimedAs(accessUrl)) });
      expect([res.statusCode, res.json().step, res.json().code], `${accessUrl}: ${res.body}`).toEqual([200, 'failed', 102]);
      expect(res.json().message).toMatch(/setup token has been used/);
      expect(await loginsOf(customerId)).toEqual([]);
    }
  });

  it('refreshes a login whose stored access URL holds a malformed escape as 103 without contacting the bridge', async () => {
    const customerId = await addCustomer(ctx, partner, { type: 'active' });
    const linked = await addall(customerId, bridge.createSetupToken({ accounts: demoAccounts(nowOf(ctx)) }));
    expect(linked.statusCode, linked.body).toBe(200);
    const [login] = await loginsOf(customerId);
    await ctx.runtime.database.kysely
      .updateTable('institution_logins')
      .set({ session_encrypted: sealJson(ctx.runtime, { simplefin: 1, accessUrl: malformed(port)[0], requests: [] }) })
      .where('id', '=', login!.id)
      .execute();
    const before = bridge.requests.length;
    ctx.clock.advance(3600_000);
    const res = await ctx.app.inject({ method: 'POST', url: `/aggregation/v1/customers/${customerId}/accounts`, headers: partner.headers, payload: {} });
    expect(res.statusCode, res.body).toBeLessThan(500);
    const accounts = res.json<{ accounts: AccountJson[] }>().accounts;
    expect(accounts.length).toBe(3);
    for (const account of accounts) expect((account as { aggregationStatusCode?: number }).aggregationStatusCode).toBe(103);
    expect(bridge.requests.length).toBe(before);
  });
});
