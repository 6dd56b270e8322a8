import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceCustomerClock } from '../../src/modules/aggregation/clock.service.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { linkProfile, loginForm, refresh, type AccountJson } from '../helpers/aggregation.js';

const xml = new XMLParser({ parseTagValue: false, isArray: (name) => ['account', 'question', 'choice', 'position'].includes(name) });
const addall = (customerId: string, institutionId: number) => `/aggregation/v1/customers/${customerId}/institutions/${institutionId}/accounts/addall`;

describe('linking accounts (addall)', () => {
  let ctx: TestContext;
  let partner: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
  });
  afterAll(() => ctx.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'POST', url, headers: { ...partner.headers, ...headers }, payload: payload as Record<string, unknown> });
  const accountsOf = async (customerId: string) =>
    (await ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}/accounts`, headers: partner.headers })).json<{ accounts: AccountJson[] }>().accounts;
  const eventsOf = (customerId: string) =>
    ctx.runtime.database.kysely.selectFrom('aggregation_events').selectAll().where('customer_id', '=', Number(customerId)).orderBy('id').execute();

  it('links profile_03 at 102105 exactly as public setup scripts call it', async () => {
    const customerId = await addCustomer(ctx, partner);
    const res = await post(addall(customerId, 102105), {
      credentials: [
        { id: '102105001', name: 'Banking Userid', value: 'profile_03' },
        { id: '102105002', name: 'Banking Password', value: 'profile_03' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const { accounts } = res.json<{ accounts: AccountJson[] }>();
    expect(accounts.map((a) => a.type)).toEqual(['checking', 'savings', 'creditCard', 'creditCard', 'loan', 'mortgage', 'investmentTaxDeferred']);
    const loginIds = new Set(accounts.map((a) => a.institutionLoginId));
    expect(loginIds.size).toBe(1);
    for (const a of accounts) {
      expect(a).toMatchObject({
        customerId,
        institutionId: '102105',
        status: 'active',
        aggregationStatusCode: 0,
        currency: 'USD',
        financialinstitutionAccountStatus: 'OPEN',
      });
      expect(a.id).toMatch(/^\d{10}$/);
      // Linking loads no transactions and is no aggregation yet.
      expect(a.aggregationAttemptDate).toBeUndefined();
      expect(a.oldestTransactionDate).toBeUndefined();
    }
    const events = await eventsOf(customerId);
    expect(events.map((e) => `${e.class}:${e.type}`)).toEqual(accounts.map(() => 'account:created'));
    expect(JSON.parse(events[0]!.record)).toEqual(accounts[0]);
  });

  it('gives every account type its detail fields, and investment accounts positions with service ids', async () => {
    const customerId = await addCustomer(ctx, partner);
    const accounts = await linkProfile(ctx, partner, customerId, 'profile_02');
    const byType = new Map(accounts.map((a) => [a.type, a]));
    expect([...byType.keys()].sort()).toEqual([
      'checking',
      'creditCard',
      'investment',
      'investmentTaxDeferred',
      'lineOfCredit',
      'loan',
      'mortgage',
      'roth',
      'savings',
    ]);
    expect(Object.keys(byType.get('checking')!.detail!).sort()).toEqual(['availableBalanceAmount', 'periodInterestRate']);
    expect(Object.keys(byType.get('savings')!.detail!).sort()).toEqual(['availableBalanceAmount', 'periodInterestRate']);
    expect(byType.get('creditCard')!.detail).toBeUndefined();
    const loanKeys = [
      'payoffAmount',
      'principalBalance',
      'escrowBalance',
      'interestRate',
      'autoPayEnrolled',
      'collateral',
      'currentSchool',
      'firstMortgage',
      'originalSchool',
      'recurringPaymentAmount',
      'lender',
      'availableBalanceAmount',
      'endingBalanceAmount',
      'loanTermType',
      'paymentsMade',
      'balloonAmount',
      'projectedInterest',
      'interestPaidLtd',
      'interestRateType',
      'loanPaymentType',
      'paymentsRemaining',
      'loanMinAmtDue',
      'loanPaymentFreq',
      'paymentMinAmount',
      'loanMinAmtDueDate',
      'firstPaymentDate',
    ];
    for (const t of ['loan', 'mortgage']) expect(Object.keys(byType.get(t)!.detail!).sort()).toEqual([...loanKeys].sort());
    expect(Object.keys(byType.get('lineOfCredit')!.detail!).sort()).toEqual([
      'creditAvailableAmount',
      'interestRate',
      'locPrincipalBalance',
      'paymentDueDate',
      'paymentMinAmount',
      'statementCloseBalance',
      'statementEndDate',
    ]);
    for (const t of ['investment', 'investmentTaxDeferred', 'roth']) {
      const a = byType.get(t)!;
      expect(a.detail).toMatchObject({
        availableCashBalance: expect.any(Number),
        marginAllowed: expect.any(Boolean),
        allowedCheckWriting: expect.stringMatching(/ALLOW|DENY/),
      });
      expect(a.position!.length).toBeGreaterThan(0);
      for (const p of a.position!)
        expect(p).toMatchObject({
          id: expect.any(Number),
          symbol: expect.any(String),
          marketValue: expect.stringMatching(/^-?\d+(\.\d+)?$/),
          originalPurchaseDate: expect.any(Number),
        });
      expect(a.position![0]).not.toHaveProperty('ref');
    }
    expect(byType.get('checking')!.position).toBeUndefined();
    // Position ids stay the same across refreshes.
    const before = byType.get('investment')!.position!.map((p) => [p.symbol, p.id]);
    await advanceCustomerClock(ctx.app.engine, partner.partnerId, customerId, 86_400);
    const after = (await refresh(ctx, partner, customerId)).find((a) => a.type === 'investment')!.position!.map((p) => [p.symbol, p.id]);
    expect(after).toEqual(before);
  });

  it('gives two customers with the same profile identical accounts', async () => {
    const strip = (accounts: AccountJson[]) =>
      accounts.map(({ id: _i, customerId: _c, institutionLoginId: _l, position, ...rest }) => ({ ...rest, position: position?.map(({ id: _p, ...p }) => p) }));
    const a = await linkProfile(ctx, partner, await addCustomer(ctx, partner), 'many_accounts');
    const b = await linkProfile(ctx, partner, await addCustomer(ctx, partner), 'many_accounts');
    expect(a).toHaveLength(12);
    expect(strip(b)).toEqual(strip(a));
  });

  it('links the same institution twice with the same credentials without duplicating anything', async () => {
    const customerId = await addCustomer(ctx, partner);
    const first = await linkProfile(ctx, partner, customerId, 'profile_01');
    const second = await linkProfile(ctx, partner, customerId, 'profile_01');
    expect(second.map((a) => a.id)).toEqual(first.map((a) => a.id));
    expect(await accountsOf(customerId)).toHaveLength(first.length);
    expect((await eventsOf(customerId)).filter((e) => e.type === 'created')).toHaveLength(first.length);
    // A different profile at the same institution is a second institution login.
    const other = await linkProfile(ctx, partner, customerId, 'student');
    expect(other[0]!.institutionLoginId).not.toBe(first[0]!.institutionLoginId);
  });

  it('answers a wrong password with 103 and links nothing', async () => {
    const customerId = await addCustomer(ctx, partner);
    const res = await post(addall(customerId, 101732), loginForm(101732, 'profile_01', 'wrong'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: '103', message: expect.stringContaining('aggregation status 103') });
    expect(await accountsOf(customerId)).toEqual([]);
  });

  it.each([
    ['error_102', 101732, 424, '102'],
    ['error_108', 101732, 400, '108'],
    ['error_109', 101732, 400, '109'],
    ['profile_01', 102176, 424, '102'],
  ])('gives %s at %i its aggregation status code', async (profile, institutionId, status, code) => {
    const customerId = await addCustomer(ctx, partner);
    const res = await post(addall(customerId, institutionId), loginForm(institutionId, profile));
    expect(res.statusCode).toBe(status);
    expect(res.json().code).toBe(code);
    const x = await post(addall(customerId, institutionId), loginForm(institutionId, profile), { accept: 'application/xml' });
    expect(xml.parse(x.body).error.code).toBe(code);
    expect(await accountsOf(customerId)).toEqual([]);
  });

  it('asks MFA questions with 203 and an MFA-Session header, and links once they are answered', async () => {
    const customerId = await addCustomer(ctx, partner);
    const first = await post(addall(customerId, 101732), loginForm(101732, 'mfa_multi'));
    expect(first.statusCode).toBe(203);
    const session = first.headers['mfa-session'] as string;
    expect(session).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(first.json()).toEqual({ questions: [{ id: 'city', text: 'In what city were you born?' }] });
    const mfa = `${addall(customerId, 101732)}/mfa`;
    const second = await post(
      mfa,
      { mfaChallenges: { questions: [{ text: 'In what city were you born?', answer: 'Springfield' }] } },
      { 'mfa-session': session },
    );
    expect(second.statusCode).toBe(203);
    const questions = second.json().questions;
    expect(questions.map((q: { id: string }) => q.id)).toEqual(['color', 'phone']);
    expect(questions[0].choices).toContainEqual({ value: 'blue', choice: 'Blue' });
    const done = await post(
      mfa,
      {
        questions: [
          { id: 'color', answer: 'blue' },
          { id: 'phone', answer: '0199' },
        ],
      },
      { 'mfa-session': second.headers['mfa-session'] as string },
    );
    expect(done.statusCode).toBe(200);
    expect(done.json().accounts).toHaveLength(3);
    // The session is finished: using it again is a 409, another customer's path a 404.
    expect((await post(mfa, { questions: [{ id: 'phone', answer: '0199' }] }, { 'mfa-session': session })).statusCode).toBe(409);
    const other = await addCustomer(ctx, partner);
    expect((await post(`${addall(other, 101732)}/mfa`, { questions: [{ id: 'phone', answer: '0199' }] }, { 'mfa-session': session })).statusCode).toBe(404);
  });

  it('answers MFA in XML, and a wrong answer ends in 187', async () => {
    const customerId = await addCustomer(ctx, partner);
    const xmlHeaders = { accept: 'application/xml', 'content-type': 'application/xml' };
    const form =
      '<accounts><credentials><loginField><id>101732001</id><name>Banking Userid</name><value>mfa_image</value></loginField><loginField><id>101732002</id><name>Banking Password</name><value>mfa_image</value></loginField></credentials></accounts>';
    const first = await post(addall(customerId, 101732), form, xmlHeaders);
    expect(first.statusCode).toBe(203);
    const body = xml.parse(first.body);
    expect(body.mfaChallenges.questions.question[0].image).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(body.mfaChallenges.questions.question[0].choices.choice.map((c: { value: string }) => c.value)).toContain('sun');
    const wrong = await post(
      `${addall(customerId, 101732)}/mfa`,
      '<accounts><mfaChallenges><questions><question><id>picture</id><answer>tree</answer></question></questions></mfaChallenges></accounts>',
      { ...xmlHeaders, 'mfa-session': first.headers['mfa-session'] as string },
    );
    expect(wrong.statusCode).toBe(400);
    expect(xml.parse(wrong.body).error.code).toBe('187');

    const again = await post(addall(customerId, 101732), form, xmlHeaders);
    const right = await post(
      `${addall(customerId, 101732)}/mfa`,
      '<accounts><mfaChallenges><questions><question><id>picture</id><answer>sun</answer></question></questions></mfaChallenges></accounts>',
      { ...xmlHeaders, 'mfa-session': again.headers['mfa-session'] as string },
    );
    expect(right.statusCode).toBe(200);
    expect(xml.parse(right.body).accounts.account).toHaveLength(3);
  });

  it('ends in 185 when the MFA question is answered more than ten minutes later (customer clock)', async () => {
    const customerId = await addCustomer(ctx, partner);
    const first = await post(addall(customerId, 102175), loginForm(102175, 'profile_01'));
    expect(first.json().questions[0].id).toBe('otp');
    await advanceCustomerClock(ctx.app.engine, partner.partnerId, customerId, 601);
    const late = await post(
      `${addall(customerId, 102175)}/mfa`,
      { questions: [{ id: 'otp', answer: '123456' }] },
      { 'mfa-session': first.headers['mfa-session'] as string },
    );
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('185');
    expect(await accountsOf(customerId)).toEqual([]);
  });

  it('refuses OAuth institutions, non-test institutions for testing customers, and unknown institutions', async () => {
    const customerId = await addCustomer(ctx, partner);
    const oauth = await post(addall(customerId, 102168), loginForm(102168, 'profile_01'));
    expect(oauth.statusCode).toBe(400);
    expect(oauth.json().code).toBe('14063');
    const real = await ctx.runtime.database.kysely.selectFrom('institutions').select('id').where('class', '!=', 'testfi').limit(1).executeTakeFirstOrThrow();
    const notAllowed = await post(addall(customerId, real.id), loginForm(real.id, 'profile_01'));
    expect(notAllowed.statusCode).toBe(403);
    expect(notAllowed.json().code).toBe('14061');
    expect((await post(addall(customerId, 999999999), loginForm(999999999, 'profile_01'))).statusCode).toBe(404);
    expect((await post(addall(customerId, 101732), { credentials: [] })).statusCode).toBe(400);
  });

  it('answers 200 with no accounts for a sign-in that shows none', async () => {
    const customerId = await addCustomer(ctx, partner);
    expect(await linkProfile(ctx, partner, customerId, 'no_accounts')).toEqual([]);
    expect(await ctx.runtime.database.kysely.selectFrom('institution_logins').selectAll().where('customer_id', '=', Number(customerId)).execute()).toEqual([]);
  });

  it('stores the saved sign-in encrypted', async () => {
    const customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'profile_01');
    const login = await ctx.runtime.database.kysely
      .selectFrom('institution_logins')
      .selectAll()
      .where('customer_id', '=', Number(customerId))
      .executeTakeFirstOrThrow();
    expect(login.session_encrypted).toMatch(/^v1\./);
    expect(login.credentials_encrypted).toMatch(/^v1\./);
    expect(login.credentials_encrypted).not.toContain('profile_01');
  });
});
