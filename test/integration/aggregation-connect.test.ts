import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testbank } from '../../src/connectors/testbank/index.js';
import { deleteAccount, deleteInstitutionLogin } from '../../src/modules/aggregation/accounts.service.js';
import { advanceCustomerClock } from '../../src/modules/aggregation/clock.service.js';
import type { Engine } from '../../src/modules/aggregation/engine.js';
import {
  answerLinkMfa,
  completeLinkOAuth,
  finishLink,
  listInstitutionLogins,
  startLink,
  type LinkStep,
} from '../../src/modules/aggregation/linking.service.js';
import { refreshCustomerAccounts } from '../../src/modules/aggregation/refresh.service.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { DAY, nowOf } from '../helpers/aggregation.js';

const form = (institutionId: number, user: string, password = user) => [
  { id: `${institutionId}001`, value: user },
  { id: `${institutionId}002`, value: password },
];

function expectStep<S extends LinkStep['step']>(step: LinkStep, name: S): Extract<LinkStep, { step: S }> {
  expect(step.step, JSON.stringify(step)).toBe(name);
  return step as Extract<LinkStep, { step: S }>;
}

describe('the linking contract (Connect)', () => {
  let ctx: TestContext;
  let engine: Engine;
  let partner: TestPartner;
  let other: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    engine = ctx.app.engine;
    partner = await partnerWithToken(ctx);
    other = await partnerWithToken(ctx);
  });
  afterAll(() => ctx.close());

  it('links a chosen subset of accounts, marking already linked ones on the next sign-in', async () => {
    const customerId = await addCustomer(ctx, partner);
    const step = expectStep(
      await startLink(engine, { partnerId: partner.partnerId, customerId, institutionId: 101732, credentials: form(101732, 'profile_03') }),
      'accounts',
    );
    expect(step.accounts.every((a) => !a.alreadyLinked)).toBe(true);
    const chosen = step.accounts.slice(0, 2).map((a) => a.ref);
    const saved = await finishLink(engine, { partnerId: partner.partnerId, sessionId: step.sessionId, accountRefs: chosen });
    expect(saved.accounts.map((a) => a.name)).toEqual(step.accounts.slice(0, 2).map((a) => a.name));
    expect(saved.institutionId).toBe(101732);
    await expect(finishLink(engine, { partnerId: partner.partnerId, sessionId: step.sessionId })).rejects.toMatchObject({ code: '14065', status: 409 });

    const again = expectStep(
      await startLink(engine, { partnerId: partner.partnerId, customerId, institutionId: 101732, credentials: form(101732, 'profile_03') }),
      'accounts',
    );
    expect(again.accounts.map((a) => a.alreadyLinked)).toEqual(step.accounts.map((_, i) => i < 2));
    await expect(finishLink(engine, { partnerId: partner.partnerId, sessionId: again.sessionId, accountRefs: ['nope'] })).rejects.toMatchObject({
      code: '10010',
    });
    const more = await finishLink(engine, {
      partnerId: partner.partnerId,
      sessionId: again.sessionId,
      accountRefs: step.accounts.slice(1, 4).map((a) => a.ref),
    });
    expect(more.institutionLoginId).toBe(saved.institutionLoginId);
    expect(more.accounts[0]!.id).toBe(saved.accounts[1]!.id);
    const logins = await listInstitutionLogins(engine, partner.partnerId, customerId);
    expect(logins).toEqual([
      { institutionLoginId: saved.institutionLoginId, institutionId: 101732, aggregationStatusCode: 0, statementFile: false, accounts: expect.any(Array) },
    ]);
    expect(logins[0]!.accounts).toHaveLength(4);
  });

  it('links an OAuth institution through the authorize page and the code sent back', async () => {
    const customerId = await addCustomer(ctx, partner);
    const redirectUri = 'https://partner.example/connect/done';
    const step = expectStep(await startLink(engine, { partnerId: partner.partnerId, customerId, institutionId: 102168, redirectUri }), 'oauth');
    const url = new URL(step.authorizeUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${ctx.runtime.config.publicUrl}/connect/testbank/oauth/authorize`);
    const pages = engine.registry.opened(testbank).oauthPages;
    const request = pages.parseAuthorizeRequest(Object.fromEntries(url.searchParams));
    if (!request.ok) throw new Error(request.error);
    expect(request.request.state).toBe(step.sessionId);
    const code = pages.issueAuthorizationCode(request.request, 'profile_01', nowOf(ctx));
    // The code of another partner's session, or a bad code, does not complete it.
    await expect(completeLinkOAuth(engine, { partnerId: other.partnerId, sessionId: step.sessionId, code })).rejects.toMatchObject({ status: 404 });
    const accounts = expectStep(await completeLinkOAuth(engine, { partnerId: partner.partnerId, sessionId: step.sessionId, code }), 'accounts');
    await expect(completeLinkOAuth(engine, { partnerId: partner.partnerId, sessionId: step.sessionId, code })).rejects.toMatchObject({ code: '14065' });
    const saved = await finishLink(engine, { partnerId: partner.partnerId, sessionId: accounts.sessionId });
    expect(saved.accounts).toHaveLength(2);
    const login = await ctx.runtime.database.kysely
      .selectFrom('institution_logins')
      .selectAll()
      .where('id', '=', saved.institutionLoginId)
      .executeTakeFirstOrThrow();
    expect(login.credentials_encrypted).toBeNull();

    const bad = expectStep(await startLink(engine, { partnerId: partner.partnerId, customerId, institutionId: 102168, redirectUri }), 'oauth');
    expect(await completeLinkOAuth(engine, { partnerId: partner.partnerId, sessionId: bad.sessionId, code: 'forged' })).toMatchObject({
      step: 'failed',
      code: 103,
    });
  });

  it('repairs a login with Fix: new sign-in, error cleared, refreshes work again', async () => {
    const customerId = await addCustomer(ctx, partner);
    const first = expectStep(
      await startLink(engine, { partnerId: partner.partnerId, customerId, institutionId: 101732, credentials: form(101732, 'mfa_refresh') }),
      'mfa',
    );
    const linked = await finishLink(engine, {
      partnerId: partner.partnerId,
      sessionId: expectStep(
        await answerLinkMfa(engine, { partnerId: partner.partnerId, sessionId: first.sessionId, answers: [{ id: 'teacher', value: 'smith' }] }),
        'accounts',
      ).sessionId,
    });
    await advanceCustomerClock(engine, partner.partnerId, customerId, 2 * DAY);
    expect((await refreshCustomerAccounts(engine, partner.partnerId, customerId)).map((a) => a.aggregationStatusCode)).toEqual([185, 185, 185]);
    expect((await listInstitutionLogins(engine, partner.partnerId, customerId))[0]!.aggregationStatusCode).toBe(185);

    const fix = expectStep(
      await startLink(engine, {
        partnerId: partner.partnerId,
        customerId,
        institutionId: 101732,
        institutionLoginId: linked.institutionLoginId,
        credentials: form(101732, 'mfa_refresh'),
      }),
      'mfa',
    );
    const chosen = expectStep(
      await answerLinkMfa(engine, {
        partnerId: partner.partnerId,
        sessionId: fix.sessionId,
        answers: [{ id: 'What was the last name of your favourite teacher?', value: 'Smith' }],
      }),
      'accounts',
    );
    expect(chosen.accounts.every((a) => a.alreadyLinked)).toBe(true);
    const repaired = await finishLink(engine, { partnerId: partner.partnerId, sessionId: chosen.sessionId });
    expect(repaired.institutionLoginId).toBe(linked.institutionLoginId);
    expect(repaired.accounts.map((a) => a.id)).toEqual(linked.accounts.map((a) => a.id));
    expect((await refreshCustomerAccounts(engine, partner.partnerId, customerId)).map((a) => a.aggregationStatusCode)).toEqual([0, 0, 0]);
    // A Fix for a login at another institution, or of another customer, is refused.
    await expect(
      startLink(engine, {
        partnerId: partner.partnerId,
        customerId,
        institutionId: 102105,
        institutionLoginId: linked.institutionLoginId,
        credentials: form(102105, 'mfa_refresh'),
      }),
    ).rejects.toMatchObject({ status: 400 });
    const neighbour = await addCustomer(ctx, partner);
    await expect(
      startLink(engine, {
        partnerId: partner.partnerId,
        customerId: neighbour,
        institutionId: 101732,
        institutionLoginId: linked.institutionLoginId,
        credentials: form(101732, 'mfa_refresh'),
      }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('keeps sessions to their partner, customer and lifetime', async () => {
    const customerId = await addCustomer(ctx, partner);
    const step = expectStep(
      await startLink(engine, { partnerId: partner.partnerId, customerId, institutionId: 101732, credentials: form(101732, 'mfa_text') }),
      'mfa',
    );
    await expect(
      answerLinkMfa(engine, { partnerId: other.partnerId, sessionId: step.sessionId, answers: [{ id: 'pet', value: 'rex' }] }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      answerLinkMfa(engine, {
        partnerId: partner.partnerId,
        sessionId: step.sessionId,
        customerId: await addCustomer(ctx, partner),
        answers: [{ id: 'pet', value: 'rex' }],
      }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(finishLink(engine, { partnerId: partner.partnerId, sessionId: step.sessionId })).rejects.toMatchObject({ code: '14065' });
    ctx.clock.advance((engine.settings.linkSessionTtlSeconds + 1) * 1000);
    await expect(
      answerLinkMfa(engine, { partnerId: partner.partnerId, sessionId: step.sessionId, answers: [{ id: 'pet', value: 'rex' }] }),
    ).rejects.toMatchObject({ status: 404 });
    const failed = await startLink(engine, { partnerId: partner.partnerId, customerId, institutionId: 101732, credentials: form(101732, 'error_109') });
    expect(failed).toMatchObject({ step: 'failed', code: 109, message: expect.any(String) });
    await expect(
      startLink(engine, { partnerId: other.partnerId, customerId, institutionId: 101732, credentials: form(101732, 'profile_01') }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('deletes through the domain functions with 404 for unknown ids', async () => {
    const customerId = await addCustomer(ctx, partner);
    const step = expectStep(
      await startLink(engine, { partnerId: partner.partnerId, customerId, institutionId: 101732, credentials: form(101732, 'profile_01') }),
      'accounts',
    );
    const saved = await finishLink(engine, { partnerId: partner.partnerId, sessionId: step.sessionId });
    await expect(deleteAccount(engine, other.partnerId, customerId, saved.accounts[0]!.id)).rejects.toMatchObject({ status: 404 });
    await deleteAccount(engine, partner.partnerId, customerId, saved.accounts[0]!.id);
    await expect(deleteInstitutionLogin(engine, partner.partnerId, customerId, 1)).rejects.toMatchObject({ status: 404 });
    await deleteInstitutionLogin(engine, partner.partnerId, customerId, saved.institutionLoginId);
    expect(await listInstitutionLogins(engine, partner.partnerId, customerId)).toEqual([]);
  });
});
