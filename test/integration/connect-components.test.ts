import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCatalogue } from '../../src/contract/errors/catalogue.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { saveExperience } from '../../src/modules/connect/experiences.service.js';
import { linkProfile } from '../helpers/aggregation.js';
import { appOk, pathOf, profileForm } from '../helpers/connect.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { startListener, type Listener } from '../helpers/listener.js';
import { uploadStatementOk } from '../helpers/statement-uploads.js';
import { ofxStatementFile } from '../helpers/statement-files.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const AGREEMENT = { language: 'en', acceptedDate: '2024-11-28T18:25:32+00:00' };
const CODE_STATUS = new Map<string, number>(Object.values(ErrorCatalogue).map((d) => [d.code, d.status]));

let ctx: TestContext;
let partner: TestPartner;
let other: TestPartner;
let listener: Listener;

beforeAll(async () => {
  listener = await startListener();
  // Webhook subscriptions take a local receiver on its own port only when the sandbox allows that port.
  ctx = await createTestContext({ LEDGERLINK_PUSH_EXTRA_PORTS: String(listener.port) });
  await ensureInstitutionCatalog(ctx.runtime.database);
  partner = await partnerWithToken(ctx);
  other = await partnerWithToken(ctx);
});
afterAll(async () => {
  await listener.close();
  await ctx.close();
});

function call(who: TestPartner, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method, url, headers: { ...who.headers, ...headers }, ...(payload ? { payload } : {}) });
}

/** Expects the Connect Components' error body with this code, and the code's own status. */
function expectComponentsError(res: LightMyRequestResponse, code: string, details?: RegExp): void {
  expect(res.statusCode, res.body).toBe(CODE_STATUS.get(code));
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(body).toEqual({
    Errors: {
      Error: [
        {
          Source: 'Connect-Components',
          ReasonCode: code,
          Description: expect.any(String),
          Recoverable: false,
          Details: details ? expect.stringMatching(details) : expect.any(String),
        },
      ],
    },
  });
}

/** The query of a link as a map. */
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('Connect Components configurations', () => {
  it('creates, lists, reads and deletes configurations, each only for its partner', async () => {
    const created = await call(partner, 'POST', '/connect-components/configurations', {
      filterAccounts: [' Checking ', 'checking', 'savings'],
      accountClassificationType: ['Personal'],
      aoRequired: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const first = created.json();
    expect(first).toEqual({
      id: expect.stringMatching(UUID),
      filterAccounts: ['Checking', 'checking', 'savings'],
      accountClassificationType: ['personal'],
      aoRequired: true,
    });
    // Listed oldest first: the second a second later.
    ctx.clock.advance(1000);
    const second = (await call(partner, 'POST', '/connect-components/configurations', { aoRequired: false })).json();
    expect(second).toEqual({ id: expect.stringMatching(UUID), aoRequired: false });
    const theirs = (await call(other, 'POST', '/connect-components/configurations', { filterAccounts: ['savings'] })).json();

    const list = await call(partner, 'GET', '/connect-components/configurations');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([first, second]);
    expect((await call(partner, 'GET', `/connect-components/configurations/${first.id}`)).json()).toEqual(first);

    // Another partner's configuration is an unknown one, for reading and for deleting.
    expectComponentsError(await call(partner, 'GET', `/connect-components/configurations/${theirs.id}`), '16600');
    expectComponentsError(await call(partner, 'DELETE', `/connect-components/configurations/${theirs.id}`), '16600');
    expect((await call(other, 'GET', `/connect-components/configurations/${theirs.id}`)).statusCode).toBe(200);

    const deleted = await call(partner, 'DELETE', `/connect-components/configurations/${second.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expectComponentsError(await call(partner, 'GET', `/connect-components/configurations/${second.id}`), '16600');
    expectComponentsError(await call(partner, 'DELETE', `/connect-components/configurations/${second.id}`), '16600');
    expectComponentsError(await call(partner, 'GET', '/connect-components/configurations/not-a-uuid'), '16600');
    expect((await call(partner, 'GET', '/connect-components/configurations')).json()).toEqual([first]);
  });

  it('refuses configurations that set nothing or name an unknown classification, in its own error body', async () => {
    expectComponentsError(
      await call(partner, 'POST', '/connect-components/configurations', {}),
      '10005',
      /filterAccounts, accountClassificationType or aoRequired/,
    );
    expectComponentsError(
      await call(partner, 'POST', '/connect-components/configurations', { accountClassificationType: ['corporate'] }),
      '10010',
      /accountClassificationType\[0\]/,
    );
    expectComponentsError(await call(partner, 'POST', '/connect-components/configurations', { filterAccounts: [] }), '10010', /filterAccounts/);
    expectComponentsError(await call(partner, 'POST', '/connect-components/configurations', { aoRequired: 'sometimes' }), '10010', /aoRequired/);
    expectComponentsError(await call(partner, 'POST', '/connect-components/configurations', { filterAccounts: ['  '] }), '10010', /filterAccounts\[0\]/);
  });

  it('authenticates as the API does and answers its failures in the same body', async () => {
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/connect-components/configurations' });
    expect(anonymous.statusCode).toBe(401);
    const code = anonymous.json().Errors.Error[0].ReasonCode as string;
    expectComponentsError(anonymous, code);
    const badToken = await ctx.app.inject({
      method: 'GET',
      url: '/connect-components/configurations',
      headers: { ...partner.headers, 'service-app-token': 'not-a-token' },
    });
    expect(badToken.statusCode).toBe(401);
    expectComponentsError(badToken, badToken.json().Errors.Error[0].ReasonCode);
  });

  it('answers JSON only: XML bodies are 415 and answers asked in XML alone 406, both in its error body', async () => {
    const xmlBody = await ctx.app.inject({
      method: 'POST',
      url: '/connect-components/configurations',
      headers: { ...partner.headers, 'content-type': 'application/xml' },
      payload: '<configuration><aoRequired>true</aoRequired></configuration>',
    });
    expectComponentsError(xmlBody, ErrorCatalogue.UnsupportedMediaType.code, /send application\/json$/);
    const xmlAnswer = await call(partner, 'GET', '/connect-components/configurations', undefined, { accept: 'application/xml' });
    expectComponentsError(xmlAnswer, ErrorCatalogue.NotAcceptable.code, /application\/json only/);
    // Errors the router raises before any hook come in the same body.
    const tooLong = await call(partner, 'GET', `/connect-components/configurations/${'a'.repeat(300)}`);
    expectComponentsError(tooLong, ErrorCatalogue.PathTooLong.code);
    // Accept that prefers XML but admits JSON gets JSON.
    const either = await call(partner, 'GET', '/connect-components/configurations', undefined, { accept: 'application/xml, application/json;q=0.5' });
    expect(either.statusCode).toBe(200);
    expect(either.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('Connect Components sessions', () => {
  let customerId: string;

  beforeAll(async () => {
    customerId = await addCustomer(ctx, partner);
  });

  it('creates a login form whose fields are the institution’s and whose URL signs in at it in the hosted app', async () => {
    const res = await call(partner, 'POST', '/connect-components/institutions/101732/login-forms', {
      language: 'en-US',
      customerId,
      serviceAgreement: AGREEMENT,
    });
    expect(res.statusCode, res.body).toBe(201);
    const form = res.json();
    expect(form).toEqual({
      id: expect.stringMatching(UUID),
      eventStreamId: expect.stringMatching(UUID),
      elements: [
        { id: expect.stringMatching(UUID), label: expect.any(String), sortOrder: 0 },
        { id: expect.stringMatching(UUID), label: expect.any(String), sortOrder: 1 },
      ],
      url: expect.stringContaining(`${ctx.runtime.config.publicUrl}/connect?`),
    });
    expect(form.elements[0].id).not.toBe(form.elements[1].id);
    expect(queryOf(form.url)).toMatchObject({ linkId: form.id, customerId, institutionId: '101732', type: 'lite', language: 'en-us' });
    const page = await ctx.app.inject({ url: pathOf(form.url) });
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const session = await appOk(ctx, form.url, 'POST', '/session');
    expect(session).toMatchObject({ mode: 'lite', customerId, institution: { id: 101732 }, borrowers: null });
    const selected = await appOk(ctx, form.url, 'POST', '/institutions/101732');
    expect(selected.loginForm.map((f: { label: string }) => f.label)).toEqual(form.elements.map((e: { label: string }) => e.label));
  });

  it('offers and saves only the accounts its configuration keeps, and tags the session’s events with its event stream', async () => {
    const subscription = await call(partner, 'POST', '/notification-subscriptions/webhooks', { url: listener.url, events: [{ name: 'connect.added' }] });
    expect(subscription.statusCode, subscription.body).toBe(201);
    const configuration = (
      await call(partner, 'POST', '/connect-components/configurations', { filterAccounts: ['CHECKING'], accountClassificationType: ['personal'] })
    ).json();
    const owner = await addCustomer(ctx, partner);
    const form = (
      await call(partner, 'POST', '/connect-components/institutions/101732/login-forms', {
        language: 'en',
        customerId: owner,
        configurationId: configuration.id,
        serviceAgreement: AGREEMENT,
      })
    ).json();
    await appOk(ctx, form.url, 'POST', '/session');
    const step = await appOk(ctx, form.url, 'POST', '/signin', { institutionId: 101732, credentials: profileForm(101732, 'profile_01') });
    expect(step.step).toBe('accounts');
    expect(step.accounts.map((a: { type: string }) => a.type)).toEqual(['checking']);
    // Without a configuration the same sign-in offers the savings account too.
    const plain = (
      await call(partner, 'POST', '/connect-components/institutions/101732/login-forms', { language: 'en', customerId: owner, serviceAgreement: AGREEMENT })
    ).json();
    const all = await appOk(ctx, plain.url, 'POST', '/signin', { institutionId: 101732, credentials: profileForm(101732, 'profile_01') });
    expect(all.accounts.map((a: { type: string }) => a.type).sort()).toEqual(['checking', 'savings']);
    // Choosing nothing means every account offered: the checking account alone.
    const added = await appOk(ctx, form.url, 'POST', `/signin/${step.sessionId}/accounts`, {});
    expect(added.accounts.map((a: { type: string }) => a.type)).toEqual(['checking']);
    const stored = await call(partner, 'GET', `/aggregation/v1/customers/${owner}/accounts`);
    expect(stored.json().accounts.map((a: { type: string }) => a.type)).toEqual(['checking']);
    await drainDeliveries(ctx.runtime);
    const notified = listener.requests.map((r) => r.body).filter((b) => b.includes(owner));
    expect(notified.length).toBe(1);
    expect(notified[0]).toContain(form.eventStreamId);
    const removed = await call(partner, 'DELETE', `/notification-subscriptions/webhooks/${subscription.json().subscriptionId}`);
    expect(removed.statusCode).toBe(204);
    listener.requests.length = 0;
  });

  it('creates an OAuth URL for an OAuth institution whose URL opens its sign-in and returns to redirectURI', async () => {
    const res = await call(partner, 'POST', '/connect-components/institutions/102168/oauth-urls', {
      customerId,
      redirectURI: 'https://oauth.example.com/redirect',
      serviceAgreement: AGREEMENT,
    });
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json();
    expect(answer).toEqual({ id: expect.stringMatching(UUID), url: expect.any(String), eventStreamId: expect.stringMatching(UUID) });
    expect(queryOf(answer.url)).toMatchObject({ linkId: answer.id, institutionId: '102168', type: 'lite', redirectUri: 'https://oauth.example.com/redirect' });
    const session = await appOk(ctx, answer.url, 'POST', '/session');
    expect(session).toMatchObject({ mode: 'lite', institution: { id: 102168, oauth: true }, redirectUri: 'https://oauth.example.com/redirect' });
    const step = await appOk(ctx, answer.url, 'POST', '/signin', { institutionId: 102168, credentials: [] });
    expect(step.step).toBe('oauth');
    const done = await appOk(ctx, answer.url, 'POST', '/done', { reason: 'done' });
    expect(done).toEqual({ redirectUri: 'https://oauth.example.com/redirect' });
  });

  it('refuses each documented error of OAuth URLs and login forms, before storing anything', async () => {
    const links = async () => (await ctx.runtime.database.kysely.selectFrom('connect_links').select('id').execute()).length;
    const before = await links();
    const oauth = (body: object, institution = 102168) =>
      call(partner, 'POST', `/connect-components/institutions/${institution}/oauth-urls`, {
        customerId,
        redirectURI: 'https://oauth.example.com/redirect',
        serviceAgreement: AGREEMENT,
        ...body,
      });
    const form = (body: object, institution = 101732) =>
      call(partner, 'POST', `/connect-components/institutions/${institution}/login-forms`, {
        customerId,
        language: 'en',
        serviceAgreement: AGREEMENT,
        ...body,
      });
    expectComponentsError(await oauth({}, 101732), '16601', /Create Login Form/);
    expectComponentsError(await form({}, 102168), '16602', /Create OAuth URL/);
    expectComponentsError(await form({}, 999999999), '14006');
    // A testing customer links at test institutions only.
    const real = await ctx.runtime.database.kysely.selectFrom('institutions').select('id').where('class', '!=', 'testfi').limit(1).executeTakeFirstOrThrow();
    expectComponentsError(await form({}, real.id), '14061');
    expectComponentsError(await oauth({}, real.id), '14061');
    expectComponentsError(await oauth({ customerId: '1005999999' }), '14001');
    const theirs = await addCustomer(ctx, other);
    expectComponentsError(await form({ customerId: theirs }), '14001');
    expectComponentsError(await form({ language: 'de' }), '10010', /language/);
    expectComponentsError(await form({ configurationId: '605543e1-f507-48ad-8127-95c40566597b' }), '16600');
    const foreign = (await call(other, 'POST', '/connect-components/configurations', { aoRequired: true })).json();
    expectComponentsError(await form({ configurationId: foreign.id }), '16600');
    expectComponentsError(await oauth({ redirectURI: 'not a url' }), '10010', /redirectURI/);
    expectComponentsError(await oauth({ serviceAgreement: { language: 'en', acceptedDate: 'yesterday' } }), '10010', /acceptedDate/);
    expectComponentsError(await oauth({ serviceAgreement: { language: 'en', acceptedDate: '2999-01-01T00:00:00Z' } }), '10010', /future/);
    expectComponentsError(await oauth({ serviceAgreement: undefined }), '10005', /serviceAgreement/);
    expectComponentsError(await form({ customerId: ' ' }), '10005', /customerId/);
    expectComponentsError(
      await call(partner, 'POST', '/connect-components/institutions/abc/login-forms', { customerId, language: 'en', serviceAgreement: AGREEMENT }),
      '10010',
    );
    expect(await links()).toBe(before);
  });

  it('starts a reconnection that opens the Fix flow of the login', async () => {
    const owner = await addCustomer(ctx, partner);
    const [account] = await linkProfile(ctx, partner, owner, 'profile_01');
    const loginId = String(account!.institutionLoginId);
    const res = await call(partner, 'POST', `/connect-components/customers/${owner}/institution-login-ids/${loginId}/reconnections`);
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json();
    expect(answer).toEqual({
      id: expect.stringMatching(UUID),
      eventStreamId: expect.stringMatching(UUID),
      elements: [expect.objectContaining({ sortOrder: 0 }), expect.objectContaining({ sortOrder: 1 })],
      url: expect.any(String),
    });
    expect(queryOf(answer.url)).toMatchObject({ type: 'fix', institutionLoginId: loginId, institutionId: '101732', customerId: owner });
    expect(await appOk(ctx, answer.url, 'POST', '/session')).toMatchObject({ mode: 'fix', institutionLoginId: loginId });
    const step = await appOk(ctx, answer.url, 'POST', '/signin', { institutionId: 101732, credentials: profileForm(101732, 'profile_01') });
    const repaired = await appOk(ctx, answer.url, 'POST', `/signin/${step.sessionId}/accounts`, {});
    expect(repaired.institutionLoginId).toBe(loginId);
    // An empty JSON body is accepted too.
    const again = await call(partner, 'POST', `/connect-components/customers/${owner}/institution-login-ids/${loginId}/reconnections`, {});
    expect(again.statusCode).toBe(201);
  });

  it('refuses reconnections of unknown, foreign and statement-file logins', async () => {
    const owner = await addCustomer(ctx, partner);
    const [account] = await linkProfile(ctx, partner, owner, 'profile_01');
    const loginId = String(account!.institutionLoginId);
    const theirs = await addCustomer(ctx, other);
    const [theirAccount] = await linkProfile(ctx, other, theirs, 'profile_01');
    const url = (c: string, l: string) => `/connect-components/customers/${c}/institution-login-ids/${l}/reconnections`;
    expectComponentsError(await call(partner, 'POST', url(owner, '999999999')), '14001');
    expectComponentsError(await call(partner, 'POST', url(theirs, String(theirAccount!.institutionLoginId))), '14001');
    expectComponentsError(await call(partner, 'POST', url(owner, String(theirAccount!.institutionLoginId))), '14001');
    expectComponentsError(await call(other, 'POST', url(owner, loginId)), '14001');
    expectComponentsError(await call(partner, 'POST', url(owner, 'abc')), '10010');
    const filer = await addCustomer(ctx, partner);
    const uploaded = await uploadStatementOk(ctx, partner, filer, ofxStatementFile([{ acctId: '5550001234', balance: 10, transactions: [] }]), {
      type: 'application/x-ofx',
    });
    expectComponentsError(await call(partner, 'POST', url(filer, String(uploaded.institutionLoginId))), '16603', /statement files/);
  });
});

describe('Connect experiences', () => {
  beforeAll(async () => {
    await saveExperience(ctx.runtime.database.kysely, partner.partnerId, { name: 'gold', appName: 'Gold Lending', logoUrl: null, primaryColor: '#aa7700' }, 1);
    await saveExperience(ctx.runtime.database.kysely, other.partnerId, { name: 'gold', appName: 'Gold Lending', logoUrl: null, primaryColor: '#aa7700' }, 1);
  });

  it('lists the partner’s experiences of an application name with ids a Connect link may name', async () => {
    const res = await call(partner, 'GET', '/connect/experiences?appName=gold%20LENDING');
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json();
    expect(list).toEqual([{ id: expect.stringMatching(UUID), appName: 'Gold Lending', productCode: [] }]);
    const goldId = list[0].id;
    // The other partner's experience of the same name has an id of its own.
    const theirs = (await call(other, 'GET', '/connect/experiences?appName=Gold%20Lending')).json();
    expect(theirs[0].id).not.toBe(goldId);
    // Every partner's default experience is named after the partner.
    expect((await call(partner, 'GET', '/connect/experiences?appName=Test%20partner')).json()).toEqual([
      { id: expect.stringMatching(UUID), appName: 'Test partner', productCode: [] },
    ]);
    const customerId = await addCustomer(ctx, partner);
    const link = await call(partner, 'POST', '/connect/v2/generate', { partnerId: partner.partnerId, customerId, experience: goldId });
    expect(link.statusCode, link.body).toBe(200);
    expect(queryOf(link.json().link).experience).toBe('gold');
    expect((await appOk(ctx, link.json().link, 'POST', '/session')).experience).toMatchObject({ appName: 'Gold Lending', primaryColor: '#aa7700' });
    const foreign = await call(partner, 'POST', '/connect/v2/generate', { partnerId: partner.partnerId, customerId, experience: theirs[0].id });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().code).toBe('14070');
  });

  it('answers its errors and XML', async () => {
    const missing = await call(partner, 'GET', '/connect/experiences?appName=Nobody');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: '16620', message: 'The requested experience could not be found for the external app name.' });
    // Experiences run no product, so a product filter keeps none.
    expect((await call(partner, 'GET', '/connect/experiences?appName=Gold%20Lending&productCode=AO,ABC')).statusCode).toBe(404);
    const noName = await call(partner, 'GET', '/connect/experiences');
    expect(noName.statusCode).toBe(400);
    expect(noName.json().code).toBe('10005');
    const xml = await call(partner, 'GET', '/connect/experiences?appName=Gold%20Lending', undefined, { accept: 'application/xml' });
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toMatch(/<experiences><experience><id>[0-9a-f-]{36}<\/id><appName>Gold Lending<\/appName><\/experience><\/experiences>$/);
    const xmlMissing = await call(partner, 'GET', '/connect/experiences?appName=Nobody', undefined, { accept: 'application/xml' });
    expect(xmlMissing.body).toContain('<code>16620</code>');
  });

  it('duplicates an experience for an indirect partner as a new experience of the partner', async () => {
    const gold = (await call(partner, 'GET', '/connect/experiences?appName=Gold%20Lending')).json()[0].id as string;
    const res = await call(partner, 'POST', `/connect/experiences/${gold}/duplicate`, { indirectPartnerId: 423456789 });
    expect(res.statusCode, res.body).toBe(200);
    const { experienceId } = res.json();
    expect(experienceId).toMatch(UUID);
    expect(experienceId).not.toBe(gold);
    const listed = (await call(partner, 'GET', '/connect/experiences?appName=Gold%20Lending')).json().map((x: { id: string }) => x.id);
    expect(listed.sort()).toEqual([gold, experienceId].sort());
    // Again for the same indirect partner: the same copy.
    expect((await call(partner, 'POST', `/connect/experiences/${gold}/duplicate`, { indirectPartnerId: 423456789 })).json()).toEqual({ experienceId });
    const customerId = await addCustomer(ctx, partner);
    const link = await call(partner, 'POST', '/connect/v2/generate', { partnerId: partner.partnerId, customerId, experience: experienceId });
    expect(queryOf(link.json().link).experience).toBe('gold-423456789');
    // XML in and out.
    const xml = await ctx.app.inject({
      method: 'POST',
      url: `/connect/experiences/${gold}/duplicate`,
      headers: { ...partner.headers, accept: 'application/xml', 'content-type': 'application/xml' },
      payload: '<experience><indirectPartnerId>77</indirectPartnerId></experience>',
    });
    expect(xml.statusCode, xml.body).toBe(200);
    expect(xml.body).toMatch(/<experience><experienceId>[0-9a-f-]{36}<\/experienceId><\/experience>$/);
  });

  it('refuses unknown and foreign experiences and a missing indirect partner', async () => {
    const theirs = (await call(other, 'GET', '/connect/experiences?appName=Gold%20Lending')).json()[0].id as string;
    const foreign = await call(partner, 'POST', `/connect/experiences/${theirs}/duplicate`, { indirectPartnerId: 1 });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('16621');
    expect((await call(partner, 'POST', '/connect/experiences/nothing/duplicate', { indirectPartnerId: 1 })).json().code).toBe('16621');
    const gold = (await call(partner, 'GET', '/connect/experiences?appName=Gold%20Lending')).json()[0].id as string;
    expect((await call(partner, 'POST', `/connect/experiences/${gold}/duplicate`, {})).json().code).toBe('10005');
    expect((await call(partner, 'POST', `/connect/experiences/${gold}/duplicate`, { indirectPartnerId: 0 })).json().code).toBe('10010');
    expect((await call(other, 'GET', '/connect/experiences?appName=Gold%20Lending')).json()).toHaveLength(1);
  });
});

describe('joint borrower links', () => {
  let primary: string;
  let joint: string;
  let primaryConsumer: string;
  let jointConsumer: string;

  async function consumer(customerId: string, firstName: string, lastName: string): Promise<string> {
    const res = await call(partner, 'POST', `/decisioning/v1/customers/${customerId}/consumer`, {
      firstName,
      lastName,
      address: '434 W Ascension Way',
      city: 'Murray',
      state: 'UT',
      zip: '84123',
      phone: '1-801-984-4200',
      ssn: '989898989',
      birthday: { year: 1989, month: 12, dayOfMonth: 13 },
      email: 'someone@example.com',
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id;
  }

  const borrowers = () => [
    { customerId: primary, consumerId: primaryConsumer, type: 'primary' },
    { customerId: joint, consumerId: jointConsumer, type: 'jointBorrower', optionalConsumerInfo: { ssn: '999999999', dob: 1607450357 } },
  ];

  beforeAll(async () => {
    primary = await addCustomer(ctx, partner);
    joint = await addCustomer(ctx, partner);
    primaryConsumer = await consumer(primary, 'Marvin', 'Gardens');
    jointConsumer = await consumer(joint, 'Jenny', 'Gardens');
  });

  it('links each borrower’s accounts under their own customer in one Connect session', async () => {
    const res = await call(partner, 'POST', '/connect/v2/generate/jointBorrower', {
      partnerId: partner.partnerId,
      borrowers: borrowers(),
      webhook: listener.url,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { link } = res.json();
    expect(queryOf(link)).toMatchObject({ customerId: primary, jointBorrowerCustomerId: joint, type: 'full' });
    const session = await appOk(ctx, link, 'POST', '/session');
    expect(session.borrowers).toEqual([
      { type: 'primary', customerId: primary, name: 'Marvin Gardens' },
      { type: 'jointBorrower', customerId: joint, name: 'Jenny Gardens' },
    ]);
    const as = (borrower: string) => ({ 'connect-link': new URL(link).search, 'connect-borrower': borrower, accept: 'application/json' });
    const jointCall = (method: 'GET' | 'POST', path: string, payload?: object) =>
      ctx.app.inject({ method, url: `/connect/api${path}`, headers: as('jointBorrower'), ...(payload ? { payload } : {}) });
    // The joint borrower signs in at an OAuth institution and the primary borrower with a form.
    const oauth = (await jointCall('POST', '/signin', { institutionId: 102168, credentials: [] })).json();
    const authorize = new URL(oauth.authorizeUrl);
    const page = await ctx.app.inject({ url: authorize.pathname + authorize.search });
    const fields = Object.fromEntries(
      [...page.body.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]!.replace(/&amp;/g, '&')]),
    );
    const approve = await ctx.app.inject({
      url: `/connect/testbank/oauth/approve?${new URLSearchParams({ ...fields, profile: 'profile_02', decision: 'allow' })}`,
    });
    const back = new URL(approve.headers.location as string);
    expect((await ctx.app.inject({ url: back.pathname + back.search })).body).toContain('Signed in');
    expect((await jointCall('GET', `/signin/${oauth.sessionId}`)).json().step).toBe('accounts');
    const jointAdded = (await jointCall('POST', `/signin/${oauth.sessionId}/accounts`, {})).json();
    const mine = await appOk(ctx, link, 'POST', '/signin', { institutionId: 101732, credentials: profileForm(101732, 'profile_01') });
    const primaryAdded = await appOk(ctx, link, 'POST', `/signin/${mine.sessionId}/accounts`, {});

    const accountsOf = async (customerId: string) =>
      (await call(partner, 'GET', `/aggregation/v1/customers/${customerId}/accounts`))
        .json()
        .accounts.map((a: { id: string }) => a.id)
        .sort();
    expect(await accountsOf(joint)).toEqual(jointAdded.accounts.map((a: { id: string }) => a.id).sort());
    expect(await accountsOf(primary)).toEqual(primaryAdded.accounts.map((a: { id: string }) => a.id).sort());
    // Account management shows each borrower their own logins.
    expect((await jointCall('GET', '/logins')).json().logins.map((l: { institutionLoginId: string }) => l.institutionLoginId)).toEqual([
      jointAdded.institutionLoginId,
    ]);
    expect((await appOk(ctx, link, 'GET', '/logins')).logins.map((l: { institutionLoginId: string }) => l.institutionLoginId)).toEqual([
      primaryAdded.institutionLoginId,
    ]);
    // A borrower cannot reach the other's sign-in.
    expect((await jointCall('GET', `/signin/${mine.sessionId}`)).statusCode).toBe(404);
    // The webhooks name the customer whose accounts were added.
    await drainDeliveries(ctx.runtime);
    const events = listener.requests.map((r) => JSON.parse(r.body)).filter((b) => b.eventType === 'added');
    expect(events.map((e) => e.customerId).sort()).toEqual([primary, joint].sort());
  });

  it('stops working when either borrower’s customer is deleted', async () => {
    const first = await addCustomer(ctx, partner);
    const second = await addCustomer(ctx, partner);
    const pair = [
      { customerId: first, consumerId: await consumer(first, 'Ann', 'Lee'), type: 'primary' },
      { customerId: second, consumerId: await consumer(second, 'Bo', 'Lee'), type: 'jointBorrower' },
    ];
    const { link } = (await call(partner, 'POST', '/connect/v2/generate/jointBorrower', { partnerId: partner.partnerId, borrowers: pair })).json();
    expect((await appOk(ctx, link, 'POST', '/session')).borrowers).toHaveLength(2);
    expect((await call(partner, 'DELETE', `/aggregation/v1/customers/${second}`)).statusCode).toBe(204);
    const after = await ctx.app.inject({ method: 'POST', url: '/connect/api/session', headers: { 'connect-link': new URL(link).search } });
    expect(after.statusCode).toBe(403);
    expect(after.json().code).toBe(ErrorCatalogue.ConnectLinkInvalid.code);
  });

  it('refuses a borrower a link does not have and an unknown borrower header', async () => {
    const plain = await call(partner, 'POST', '/connect/v2/generate', { partnerId: partner.partnerId, customerId: primary });
    const search = new URL(plain.json().link).search;
    const jointOnPlain = await ctx.app.inject({
      method: 'GET',
      url: '/connect/api/logins',
      headers: { 'connect-link': search, 'connect-borrower': 'jointBorrower' },
    });
    expect(jointOnPlain.statusCode).toBe(403);
    expect(jointOnPlain.json().code).toBe('14074');
    const unknown = await ctx.app.inject({ method: 'GET', url: '/connect/api/logins', headers: { 'connect-link': search, 'connect-borrower': 'cosigner' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('10010');
  });

  it('refuses borrowers that are not one primary and one joint borrower with their consumers', async () => {
    const generate = (body: object) => call(partner, 'POST', '/connect/v2/generate/jointBorrower', { partnerId: partner.partnerId, ...body });
    const [p, j] = borrowers();
    const codeOf = async (body: object) => {
      const res = await generate(body);
      expect(CODE_STATUS.get(res.json().code), res.body).toBe(res.statusCode);
      return res.json().code;
    };
    expect(await codeOf({ borrowers: [p] })).toBe('16610');
    expect(await codeOf({ borrowers: [p, { ...j, type: 'primary' }] })).toBe('16610');
    expect(await codeOf({ borrowers: [p, j, j] })).toBe('16610');
    expect(await codeOf({ borrowers: [p, { ...p, type: 'jointBorrower' }] })).toBe('16610');
    expect(await codeOf({ borrowers: [p, { ...j, consumerId: primaryConsumer }] })).toBe('16611');
    expect(await codeOf({ borrowers: [p, { ...j, optionalConsumerInfo: { ssn: '999-99-9999' } }] })).toBe('10010');
    expect(await codeOf({ borrowers: [] })).toBe('10010');
    expect(await codeOf({})).toBe('10005');
    expect(await codeOf({ borrowers: [p, { ...j, customerId: '1005999999' }] })).toBe('14001');
    const theirs = await addCustomer(ctx, other);
    expect(await codeOf({ borrowers: [p, { ...j, customerId: theirs }] })).toBe('14001');
    const wrongPartner = await call(partner, 'POST', '/connect/v2/generate/jointBorrower', { partnerId: other.partnerId, borrowers: borrowers() });
    expect(wrongPartner.json().code).toBe('10010');
    // The other partner cannot make a link for these customers.
    const foreign = await call(other, 'POST', '/connect/v2/generate/jointBorrower', { partnerId: other.partnerId, borrowers: borrowers() });
    expect(foreign.statusCode).toBe(404);
  });

  it('answers XML and reads an XML request', async () => {
    const [p, j] = borrowers();
    const borrower = (b: { customerId: string; consumerId: string; type: string }) =>
      `<borrower><customerId>${b.customerId}</customerId><consumerId>${b.consumerId}</consumerId><type>${b.type}</type></borrower>`;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/connect/v2/generate/jointBorrower',
      headers: { ...partner.headers, accept: 'application/xml', 'content-type': 'application/xml' },
      payload: `<connect><partnerId>${partner.partnerId}</partnerId><borrowers>${borrower(p!)}${borrower(j!)}</borrowers></connect>`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const link = /<connectUrl><link>([^<]+)<\/link><\/connectUrl>/.exec(res.body)?.[1]?.replace(/&amp;/g, '&');
    expect(queryOf(link!)).toMatchObject({ customerId: primary, jointBorrowerCustomerId: joint });
  });

  it('e-mails the joint borrower link through the outbox', async () => {
    const email = { to: 'gardens@example.com', firstName: 'Marvin and Jenny', subject: 'Verify your assets' };
    const res = await call(partner, 'POST', '/connect/v2/send/email/jointBorrower', { partnerId: partner.partnerId, borrowers: borrowers(), email });
    expect(res.statusCode, res.body).toBe(200);
    const { link, emailConfig } = res.json();
    expect(emailConfig).toEqual(email);
    expect(queryOf(link)).toMatchObject({ customerId: primary, jointBorrowerCustomerId: joint });
    await drainDeliveries(ctx.runtime);
    const box = (await call(partner, 'GET', '/connect/v2/mailbox?limit=5')).json().messages;
    const mail = box.find((m: { to: string }) => m.to === 'gardens@example.com');
    expect(mail).toMatchObject({ subject: 'Verify your assets' });
    expect(mail.text).toContain('Marvin and Jenny');
    expect(mail.text).toContain(new URL(link).searchParams.get('linkId'));
    expect((await appOk(ctx, link, 'POST', '/session')).borrowers).toHaveLength(2);
    // Another partner cannot e-mail a link for these customers.
    const foreign = await call(other, 'POST', '/connect/v2/send/email/jointBorrower', { partnerId: other.partnerId, borrowers: borrowers(), email });
    expect(foreign.statusCode).toBe(404);
    const bad = await call(partner, 'POST', '/connect/v2/send/email/jointBorrower', {
      partnerId: partner.partnerId,
      borrowers: borrowers(),
      email: { to: 'nobody' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('10010');
  });
});
