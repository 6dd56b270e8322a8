import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRoutingNumber } from '../../src/connectors/testbank/institutions.js';
import { testAmounts } from '../../src/modules/microentries/amounts.rules.js';
import { DAY, linkProfile, nowOf, type AccountJson } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, renewToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';

const ROUTING = testRoutingNumber(101732);
/** A real routing number (valid check digit) that no test institution has: its amounts are random. */
const OTHER_ROUTING = '121000358';

const receiver = (accountNumber: string, routingNumber = ROUTING) => ({
  routingNumber,
  accountNumber,
  accountType: 'personalChecking',
  name: 'Jane Smith',
  memo: 'Acme account check',
});

const dollars = (accountNumber: string) => testAmounts(accountNumber).map((c) => c / 100);

describe('account validation assistance (micro entries)', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let stranger: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
    stranger = await partnerWithToken(ctx);
  }, 60_000);
  afterAll(async () => ctx?.close());

  const call = (who: TestPartner, method: 'GET' | 'POST', url: string, payload?: object, accept = 'application/json') =>
    ctx.app.inject({ method, url, headers: { ...who.headers, accept }, ...(payload ? { payload } : {}) });
  const initiate = (who: TestPartner, customerId: string, body: object) => call(who, 'POST', `/microentry/v1/customers/${customerId}`, body);
  const verify = (who: TestPartner, customerId: string, accountId: string, amounts: unknown[]) =>
    call(who, 'POST', `/microentry/v1/customers/${customerId}/accounts/${accountId}/amounts`, { amounts });
  const details = (who: TestPartner, customerId: string, accountId: string, accept?: string) =>
    call(who, 'GET', `/microentry/v1/customers/${customerId}/accounts/${accountId}`, undefined, accept);
  const advance = async (customerId: string, days: number) => {
    const res = await call(partner, 'POST', `/sandbox/v1/customers/${customerId}/clock`, { days });
    expect(res.statusCode, res.body).toBe(200);
  };
  const codeOf = (res: { statusCode: number; json: <T>() => T }) => [res.statusCode, res.json<{ code: string }>().code];

  it('initiates two deposits that land a day later and verify with the amounts in any order', async () => {
    const customerId = await addCustomer(ctx, partner);
    const started = await initiate(partner, customerId, { receiver: receiver('1234567890') });
    expect(started.statusCode, started.body).toBe(200);
    const body = started.json<{ accountId: string; status: string; depositCount: number; railType: string }>();
    expect(body).toMatchObject({ status: 'Pending', depositCount: 2, railType: 'ach' });

    const pending = await details(partner, customerId, body.accountId);
    expect(pending.json()).toMatchObject({ status: 'Pending', routingNumber: ROUTING, accountNumberLast4: '7890', railType: 'ach' });
    expect(codeOf(await verify(partner, customerId, body.accountId, dollars('1234567890')))).toEqual([400, '16403']);

    await advance(customerId, 1);
    partner = await renewToken(ctx, partner);
    expect((await details(partner, customerId, body.accountId)).json()).toMatchObject({ status: 'Completed' });
    const [a, b] = dollars('1234567890');
    const ok = await verify(partner, customerId, body.accountId, [b, a]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'Verified' });
    expect((await details(partner, customerId, body.accountId)).json()).toMatchObject({ status: 'Verified' });
    expect(codeOf(await verify(partner, customerId, body.accountId, [a, b]))).toEqual([400, '16403']);
  });

  it('fails the entries after three wrong answers and lets the same numbers start again', async () => {
    const customerId = await addCustomer(ctx, partner);
    const { accountId } = (await initiate(partner, customerId, { receiver: receiver('5550001111') })).json<{ accountId: string }>();
    ctx.clock.advance(DAY * 1000);
    partner = await renewToken(ctx, partner);
    const first = await verify(partner, customerId, accountId, [0.5, 0.6]);
    expect(codeOf(first)).toEqual([400, '16405']);
    expect(first.json<{ message: string }>().message).toContain('2 attempts left');
    // A malformed answer does not count.
    expect(codeOf(await verify(partner, customerId, accountId, [0.5]))).toEqual([400, '16406']);
    expect(codeOf(await verify(partner, customerId, accountId, [0.5, 1.5]))).toEqual([400, '16406']);
    expect(codeOf(await verify(partner, customerId, accountId, [0.123, 0.5]))).toEqual([400, '16406']);
    expect(codeOf(await verify(partner, customerId, accountId, [0.5, 0.6]))).toEqual([400, '16405']);
    const last = await verify(partner, customerId, accountId, [0.5, 0.6]);
    expect(codeOf(last)).toEqual([400, '16405']);
    expect(last.json<{ message: string }>().message).toContain('no attempts left');
    expect((await details(partner, customerId, accountId)).json()).toMatchObject({ status: 'Failed' });
    expect(codeOf(await verify(partner, customerId, accountId, dollars('5550001111')))).toEqual([400, '16404']);

    const again = await initiate(partner, customerId, { receiver: receiver('5550001111') });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ accountId, status: 'Pending' });
  });

  it('expires entries not verified within ten days of landing', async () => {
    const customerId = await addCustomer(ctx, partner);
    const { accountId } = (await initiate(partner, customerId, { receiver: receiver('7770002222') })).json<{ accountId: string }>();
    await advance(customerId, 12);
    partner = await renewToken(ctx, partner);
    expect((await details(partner, customerId, accountId)).json()).toMatchObject({ status: 'Expired' });
    expect(codeOf(await verify(partner, customerId, accountId, dollars('7770002222')))).toEqual([400, '16403']);
  });

  it('puts the deposits on an aggregated account as transactions and verifies by itself for the named login', async () => {
    const customerId = await addCustomer(ctx, partner);
    const accounts = await linkProfile(ctx, partner, customerId, 'profile_01');
    const checking = accounts.find((a: AccountJson) => a.type === 'checking')!;
    const ach = (await call(partner, 'GET', `/aggregation/v1/customers/${customerId}/accounts/${checking.id}/details`)).json<{
      routingNumber: string;
      realAccountNumber: string;
    }>();
    const started = await initiate(partner, customerId, {
      institutionLoginId: String(checking.institutionLoginId),
      receiver: receiver(ach.realAccountNumber, ach.routingNumber),
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json<{ accountId: string }>().accountId).toBe(String(checking.id));

    await advance(customerId, 1);
    partner = await renewToken(ctx, partner);
    expect((await details(partner, customerId, checking.id)).json()).toMatchObject({ status: 'Verified', autoVerifiedAccount: Number(checking.id) });
    const since = nowOf(ctx) - 3 * DAY;
    const list = await call(
      partner,
      'GET',
      `/aggregation/v4/customers/${customerId}/accounts/${checking.id}/transactions?fromDate=${since}&toDate=${nowOf(ctx) + 2 * DAY}&limit=1000`,
    );
    expect(list.statusCode, list.body).toBe(200);
    const deposits = list
      .json<{ transactions: { amount: number; description: string }[] }>()
      .transactions.filter((t) => t.description === 'ACCTVERIFY MICRO ENTRY')
      .map((t) => t.amount)
      .sort();
    expect(deposits).toEqual(dollars(ach.realAccountNumber).sort());
  });

  it('answers in XML', async () => {
    const customerId = await addCustomer(ctx, partner);
    const { accountId } = (await initiate(partner, customerId, { receiver: receiver('8880003333', OTHER_ROUTING) })).json<{ accountId: string }>();
    const res = await details(partner, customerId, accountId, 'application/xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    const parsed = new XMLParser({ parseTagValue: false }).parse(res.body) as { microDepositDetails: Record<string, string> };
    expect(parsed.microDepositDetails).toMatchObject({ status: 'Pending', routingNumber: OTHER_ROUTING, accountNumberLast4: '3333' });
    const xmlInitiate = await ctx.app.inject({
      method: 'POST',
      url: `/microentry/v1/customers/${customerId}`,
      headers: { ...partner.headers, accept: 'application/xml', 'content-type': 'application/xml' },
      payload: `<microDepositInitiation><receiver><routingNumber>${ROUTING}</routingNumber><accountNumber>4440001234</accountNumber><accountType>savings</accountType><name>Jane</name></receiver></microDepositInitiation>`,
    });
    expect(xmlInitiate.statusCode, xmlInitiate.body).toBe(200);
    expect(xmlInitiate.body).toContain('<status>Pending</status>');
  });

  it("keeps each partner's entries its own", async () => {
    partner = await renewToken(ctx, partner);
    stranger = await renewToken(ctx, stranger);
    const customerId = await addCustomer(ctx, partner);
    const { accountId } = (await initiate(partner, customerId, { receiver: receiver('9990004444') })).json<{ accountId: string }>();
    expect(codeOf(await details(stranger, customerId, accountId))).toEqual([404, '14001']);
    expect(codeOf(await verify(stranger, customerId, accountId, [0.1, 0.2]))).toEqual([404, '14001']);
    expect(codeOf(await initiate(stranger, customerId, { receiver: receiver('9990004444') }))).toEqual([404, '14001']);
    expect(codeOf(await details(partner, customerId, '5011999999'))).toEqual([404, '14001']);
    expect(codeOf(await details(partner, customerId, 'not-an-id'))).toEqual([404, '14001']);
  });

  it('refuses bad input with 4xx', async () => {
    const customerId = await addCustomer(ctx, partner);
    const bad = async (body: object, code: string, status = 400) => expect(codeOf(await initiate(partner, customerId, body))).toEqual([status, code]);
    await bad({}, '10005');
    await bad({ receiver: { ...receiver('1234567890'), routingNumber: '123456789' } }, '16400');
    await bad({ receiver: { ...receiver('1234567890'), routingNumber: 'abc' } }, '16400');
    await bad({ receiver: receiver('12') }, '16401');
    await bad({ receiver: receiver('xxxx1234') }, '16401');
    await bad({ receiver: { ...receiver('1234567890'), accountType: 'brokerage' } }, '10010');
    await bad({ receiver: { ...receiver('1234567890'), memo: 'm'.repeat(81) } }, '10010');
    await bad({ receiver: { ...receiver('1234567890'), name: ' ' } }, '10005');
    await bad({ receiver: receiver('1234567890'), callbackUrl: 'ftp://example.com' }, '10010');
    await bad({ receiver: receiver('1234567890'), institutionLoginId: '6000999999' }, '14001', 404);
    await bad({ receiver: 'nope' }, '10010');
    const { accountId } = (await initiate(partner, customerId, { receiver: receiver('1234567890') })).json<{ accountId: string }>();
    expect((await verify(partner, customerId, accountId, ['x', 'y'])).statusCode).toBe(400);
    expect((await call(partner, 'POST', `/microentry/v1/customers/${customerId}/accounts/${accountId}/amounts`, {})).statusCode).toBe(400);
  });

  it('takes one of fifty simultaneous initiations of the same numbers and refuses the others with 409', async () => {
    const customerId = await addCustomer(ctx, partner);
    const answers = await Promise.all(Array.from({ length: 50 }, () => initiate(partner, customerId, { receiver: receiver('3141592653', OTHER_ROUTING) })));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(new Set(answers.filter((r) => r.statusCode === 409).map((r) => r.json<{ code: string }>().code))).toEqual(new Set(['16402']));
    const rows = await ctx.runtime.database.kysely.selectFrom('micro_entries').selectAll().where('customer_id', '=', Number(customerId)).execute();
    expect(rows).toHaveLength(1);
    // Neither the account number nor the amounts are stored in clear.
    expect(JSON.stringify(rows)).not.toContain('3141592653');
  });

  it('generates a Connect link to verify the amounts of an existing entry only (VerifyMicroEntryMicrodeposit)', async () => {
    partner = await renewToken(ctx, partner);
    stranger = await renewToken(ctx, stranger);
    const customerId = await addCustomer(ctx, partner);
    const { accountId } = (await initiate(partner, customerId, { receiver: receiver('6660007777') })).json<{ accountId: string }>();
    const generate = (who: TestPartner, body: object, accept = 'application/json') =>
      call(who, 'POST', '/connect/v2/generate/microentry/verify', { partnerId: who.partnerId, customerId, ...body }, accept);
    const ok = await generate(partner, { accountId });
    expect(ok.statusCode, ok.body).toBe(200);
    const link = new URL(ok.json<{ link: string }>().link);
    expect([link.searchParams.get('type'), link.searchParams.get('accountId')]).toEqual(['microentry', accountId]);
    expect((await generate(partner, { accountId }, 'application/xml')).body).toContain('<link>');
    expect(codeOf(await generate(partner, { accountId: '5011999999' }))).toEqual([404, '14001']);
    expect(codeOf(await generate(stranger, { accountId }))).toEqual([404, '14001']);
    expect(codeOf(await generate(partner, {}))).toEqual([400, '10005']);
  });

  it('posts status changes to the callback URL through the outbox', async () => {
    const customerId = await addCustomer(ctx, partner);
    const started = await initiate(partner, customerId, { receiver: receiver('2220005555'), callbackUrl: 'https://partner.example/micro' });
    const { accountId } = started.json<{ accountId: string }>();
    await advance(customerId, 1);
    partner = await renewToken(ctx, partner);
    await verify(partner, customerId, accountId, dollars('2220005555'));
    const deliveries = await ctx.runtime.database.kysely
      .selectFrom('deliveries')
      .select(['target', 'body', 'event_type'])
      .where('customer_id', '=', Number(customerId))
      .orderBy('id')
      .execute();
    expect(deliveries.map((d) => d.event_type)).toEqual(['microentry.completed', 'microentry.verified']);
    expect(deliveries.every((d) => d.target === 'https://partner.example/micro')).toBe(true);
    expect(JSON.parse(deliveries[1]!.body)).toMatchObject({ eventType: 'microentry.status', accountId, status: 'Verified', customerId });
  });
});
