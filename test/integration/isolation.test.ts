import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../../src/main/app.js';
import { allTransactions, DAY, linkProfile, nowOf, refresh } from '../helpers/aggregation.js';
import { addCustomer } from '../helpers/customers.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { changedTables, databaseFingerprint, walkChangingNothing } from '../helpers/fuzz.js';
import { testDialect } from '../helpers/db.js';
import { uploadStatementOk } from '../helpers/statement-uploads.js';
import { ofxStatementFile } from '../helpers/statement-files.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { decideApp } from '../../src/modules/apps/service.js';
import type { Listener } from '../helpers/listener.js';
import { startPushListener, subscribe } from '../helpers/txpush.js';
import { accessFor } from '../helpers/simplefin-server.js';
import { createConsumer } from '../helpers/consumers.js';

/**
 * For every route with ids in its path: another partner's ids, and another customer's ids under the right
 * partner, must look exactly like unknown ids (404), and nothing may change.
 */
interface World {
  customerId: string;
  accountId: string;
  institutionLoginId: string;
  transactionId: string;
  /** The same transaction as the reference's unique id names it: accountId-transactionId. */
  uniqueTransactionId: string;
  subscriptionId: string;
  /** A SimpleFIN access claimed from a setup token of the customer. */
  accessId: string;
  /** The customer's consumer. */
  consumerId: string;
  /** A report about the customer (a VOA, left in progress). */
  reportId: string;
  /** The customer's portfolio, which the report carries. */
  portfolioId: string;
  /** The latest statement of the customer's first account, as an asset. */
  assetId: string;
  /** A transaction refresh of the customer's login. */
  refreshId: string;
  /** A saved CSV column mapping's fingerprint (partner-wide): only the other partner's world has one. */
  fingerprint?: string;
  /** A transaction rule's id (partner-wide): only the other partner's world has one. */
  ruleId?: string;
  /** A routing number an account's source stated (partner-wide): only the other partner's world has one. */
  routing_number?: string;
  /** A webhook subscription and one of its events (partner-wide): only the other partner's world has them. */
  subscription_id?: string;
  webhook_event_id?: string;
  /** An app registration, approved, and a third-party access key (partner-wide): only the other partner's world has them. */
  preAppId?: string;
  application_id?: string;
  applicationId?: string;
  consentReceiptId?: string;
  /** The customer and its login as Connect Components' paths name them. */
  customer_id: string;
  institution_login_id: string;
  /** A Connect Components configuration and a Connect experience (partner-wide): only the other partner's world has them. */
  configuration_id?: string;
  experience_id?: string;
}

/** Path parameters that name public things, the same for everyone. */
// userType (personal or business) names no record: the customer id beside it is what isolation guards.
const PUBLIC_PARAMS: Record<string, string> = { institutionId: '101732', institution_id: '101732', userType: 'personal' };
// The request log records every request by design; the catalogue is static seed data no partner route writes.
const IGNORED_TABLES = ['request_log', 'institutions', 'institution_catalog'];
/**
 * Probes made between two fingerprints of the database: a fingerprint reads every row of the worlds built here and
 * costs several probes; a block that changed something is probed again one at a time to name the route.
 */
const PROBES_PER_CHECK = 32;
/** Path parameters naming partner-wide records a partner may pair with any of its customers (a registered app). */
const PARTNER_WIDE_PARAMS = new Set(['applicationId']);

let ctx: TestContext;
let a: TestPartner;
let b: TestPartner;
let a1: World;
let a2: World;
let b1: World;
let listener: Listener;

async function world(partner: TestPartner): Promise<World> {
  const customerId = await addCustomer(ctx, partner);
  const accounts = await linkProfile(ctx, partner, customerId, 'profile_01');
  await refresh(ctx, partner, customerId);
  const now = nowOf(ctx);
  const [tx] = await allTransactions(ctx, partner, customerId, { fromDate: now - 30 * DAY, toDate: now, limit: 1 });
  const subscriptions = await subscribe(ctx, partner, customerId, accounts[0]!.id, listener.url);
  await accessFor(ctx, partner, customerId);
  const accesses = await ctx.app.inject({ method: 'GET', url: `/aggregation/v1/customers/${customerId}/simplefin/accesses`, headers: partner.headers });
  const statements = await ctx.app.inject({
    method: 'GET',
    url: `/aggregation/v3/customers/${customerId}/accounts/${accounts[0]!.id}/statement?index=1`,
    headers: partner.headers,
  });
  const assetId = statements.json().statements[0].id;
  expect(assetId, statements.body).toBeDefined();
  const transactionRefresh = await ctx.app.inject({
    method: 'POST',
    url: `/aggregation/customers/${customerId}/transactions/refreshes`,
    headers: partner.headers,
    payload: { institutionLoginId: String(accounts[0]!.institutionLoginId) },
  });
  await ctx.app.engine.idle();
  const consumerId = await createConsumer(ctx, partner, customerId);
  const report = await generateReport(partner, customerId);
  return {
    customerId,
    accountId: accounts[0]!.id,
    institutionLoginId: String(accounts[0]!.institutionLoginId),
    transactionId: String(tx!.id),
    uniqueTransactionId: `${tx!.accountId}-${tx!.id}`,
    subscriptionId: String(subscriptions.account.id),
    accessId: accesses.json().accesses[0].id,
    consumerId,
    reportId: report.id,
    portfolioId: report.portfolioId,
    assetId,
    refreshId: transactionRefresh.json<{ refreshId: string }>().refreshId,
    customer_id: customerId,
    institution_login_id: String(accounts[0]!.institutionLoginId),
  };
}

/** Asks for a VOA of the customer (after its consumer exists) and returns the report's id and portfolio id. */
async function generateReport(partner: TestPartner, customerId: string): Promise<{ id: string; portfolioId: string }> {
  const res = await ctx.app.inject({ method: 'POST', url: `/decisioning/v2/customers/${customerId}/voa`, headers: partner.headers, payload: {} });
  expect(res.statusCode, res.body).toBe(202);
  return res.json();
}

beforeAll(async () => {
  listener = await startPushListener();
  ctx = await createTestContext({ LEDGERLINK_PUSH_EXTRA_PORTS: String(listener.port), LEDGERLINK_PUBLIC_URL: 'https://ledgerlink.example.org' });
  a = await partnerWithToken(ctx);
  b = await partnerWithToken(ctx);
  a1 = await world(a);
  a2 = await world(a);
  b1 = await world(b);
  // B saves a column mapping by uploading a file of a layout no detection knows; A has none for that layout.
  await ensureInstitutionCatalog(ctx.runtime.database);
  const mapping = JSON.stringify({ date: 'When', description: 'Who', amount: 'How much' });
  const saved = await uploadStatementOk(ctx, b, b1.customerId, 'When,Who,How much\n2026-03-11,Isolation Bakery,-4.20\n', {
    type: 'text/csv',
    query: { mapping },
  });
  b1.fingerprint = saved.mapping.fingerprint;
  // B's OFX file states its bank's routing number (the file's BANKID); A's customers have no account stating it.
  await uploadStatementOk(ctx, b, b1.customerId, ofxStatementFile([{ acctId: '9876543210123', balance: 10, transactions: [] }]), {
    type: 'application/x-ofx',
  });
  b1.routing_number = '121000248';
  const rule = await ctx.app.inject({
    method: 'POST',
    url: '/aggregation/v1/partners/rules',
    headers: { ...b.headers, 'content-type': 'application/json' },
    payload: { conditions: [{ field: 'payee', operator: 'contains', value: 'bakery' }], actions: [{ field: 'memo', value: 'isolation' }] },
  });
  expect(rule.statusCode, rule.body).toBe(201);
  b1.ruleId = String(rule.json().id);
  const webhooks = await ctx.app.inject({
    method: 'POST',
    url: '/notification-subscriptions/webhooks',
    headers: { ...b.headers, 'content-type': 'application/json' },
    payload: { url: 'https://hooks.example.com/isolation', events: [{ name: 'connect.done' }] },
  });
  expect(webhooks.statusCode, webhooks.body).toBe(201);
  b1.subscription_id = webhooks.json().subscriptionId;
  b1.webhook_event_id = webhooks.json().events[0].webhookEventId;
  const app = await ctx.app.inject({
    method: 'POST',
    url: '/aggregation/v1/partners/applications',
    headers: b.headers,
    payload: {
      appDescription: 'Isolation',
      appName: 'Isolation App',
      appUrl: 'https://isolation.example/',
      ownerAddressLine1: '1 Main St',
      ownerAddressLine2: '',
      ownerCity: 'Murray',
      ownerCountry: 'USA',
      ownerName: 'Isolation Inc.',
      ownerPostalCode: '84123',
      ownerState: 'UT',
      image: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64'),
    },
  });
  expect(app.statusCode, app.body).toBe(201);
  b1.preAppId = String(app.json().preAppId);
  const approved = await decideApp(ctx.runtime, b1.preAppId, 'A');
  b1.application_id = b1.applicationId = approved.applicationId!;
  const period = { type: 'timeframe', startTime: new Date(nowOf(ctx) * 1000).toISOString(), endTime: new Date((nowOf(ctx) + DAY) * 1000).toISOString() };
  const key = await ctx.app.inject({
    method: 'POST',
    url: '/aggregation/v1/partners/accessKey',
    headers: b.headers,
    payload: {
      customerId: b1.customerId,
      partnerId: b.partnerId,
      thirdPartyPartnerId: a.partnerId,
      products: [{ product: 'availableBalance', accountId: b1.accountId, accessPeriod: period }],
    },
  });
  expect(key.statusCode, key.body).toBe(200);
  b1.consentReceiptId = key.json().data[0].receipt.receiptId;
  b1.institution_login_id = b1.institutionLoginId;
  const configuration = await ctx.app.inject({
    method: 'POST',
    url: '/connect-components/configurations',
    headers: { ...b.headers, 'content-type': 'application/json' },
    payload: { filterAccounts: ['checking'] },
  });
  expect(configuration.statusCode, configuration.body).toBe(201);
  b1.configuration_id = configuration.json().id;
  const experiences = await ctx.app.inject({ method: 'GET', url: `/connect/experiences?appName=Test%20partner`, headers: b.headers });
  expect(experiences.statusCode, experiences.body).toBe(200);
  b1.experience_id = experiences.json()[0].id;
}, 120_000);
/** Probes made, per kind, written to test-artifacts for the security report. */
const probes = { routes: 0, otherPartner: 0, otherCustomer: 0 };
afterAll(async () => {
  fs.mkdirSync('test-artifacts', { recursive: true });
  fs.writeFileSync(`test-artifacts/isolation-summary-${testDialect()}.json`, JSON.stringify(probes, null, 2));
  await ctx.close();
  await listener.close();
});

function routesWithIds(): RegisteredRoute[] {
  return ctx.app.registeredRoutes.filter(
    (r) => r.method !== 'HEAD' && r.config.scope === 'api' && [...r.url.matchAll(/:(\w+)/g)].some((m) => !(m[1]! in PUBLIC_PARAMS)),
  );
}

function fill(url: string, ids: Partial<Record<string, string>>): string {
  return url.replace(/:(\w+)/g, (_, name: string) => {
    const value = PUBLIC_PARAMS[name] ?? ids[name];
    if (value === undefined) throw new Error(`no id for path parameter ${name} in ${url}: add it to the isolation test's world`);
    return encodeURIComponent(value);
  });
}

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  anyOf?: Schema[];
  const?: unknown;
  enum?: unknown[];
};

/** The smallest value that passes a schema's validation (required parts only). */
function minimal(schema: Schema | undefined, name = ''): unknown {
  const s = schema?.anyOf?.[0] ?? schema ?? {};
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return Array.from({ length: s.minItems ?? 0 }, () => minimal(s.items));
  if (type === 'object' || s.properties) {
    const out: Record<string, unknown> = {};
    for (const key of s.required ?? []) out[key] = minimal(s.properties?.[key], key);
    return out;
  }
  return name === 'callbackUrl' ? 'https://listener.example/txpush' : 'isolation-test';
}

/** A body that passes validation where the route takes one, so the answer comes from the ownership check. */
function bodyFor(route: RegisteredRoute): unknown {
  if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)) return undefined;
  // MFA answers are either of two optional shapes, so the schema cannot require them: give one answer.
  if (route.url.endsWith('/mfa')) return { mfaChallenges: { questions: [{ text: 'isolation-test', answer: 'isolation-test' }] } };
  return minimal((route.schema?.body ?? { type: 'object' }) as Schema);
}

/** Required headers (e.g. MFA-Session) with a value, so validation does not answer first. */
function headersFor(route: RegisteredRoute): Record<string, string> {
  const schema = (route.schema?.headers ?? {}) as Schema;
  return Object.fromEntries((schema.required ?? []).map((h) => [h, 'isolation-test']));
}

/** Required query parameters with acceptable values, so validation does not answer first. */
function queryFor(route: RegisteredRoute): string {
  const schema = (route.schema?.querystring ?? {}) as { properties?: Record<string, { type?: string }>; required?: string[] };
  const now = nowOf(ctx);
  const values: Record<string, string> = { fromDate: String(now - 90 * DAY), toDate: String(now) };
  const parts = (schema.required ?? []).map(
    (name) => `${name}=${encodeURIComponent(values[name] ?? (schema.properties?.[name]?.type === 'integer' ? '1' : 'x'))}`,
  );
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** Asks for the route with `ids` in its path as `partner`, which must be told 404. */
async function expectNotFound(route: RegisteredRoute, partner: TestPartner, ids: Partial<Record<string, string>>): Promise<void> {
  const body = bodyFor(route);
  const url = fill(route.url, ids) + queryFor(route);
  const res = await ctx.app.inject({
    method: route.method as 'GET',
    url,
    headers: { ...partner.headers, ...headersFor(route) },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
  expect(res.statusCode, `${route.method} ${url}: ${res.body.slice(0, 200)}`).toBe(404);
}

/** Probes every route as `partner` with `idsFor(route)`, each told 404, and shows the database did not change. */
async function expectNotFoundAndNoChange(
  routes: readonly RegisteredRoute[],
  partner: TestPartner,
  idsFor: (route: RegisteredRoute) => Partial<Record<string, string>>,
): Promise<void> {
  await walkChangingNothing({
    database: ctx.runtime.database,
    ignore: IGNORED_TABLES,
    items: routes,
    blockSize: PROBES_PER_CHECK,
    name: (route) => `${route.method} ${fill(route.url, idsFor(route))}`,
    walk: (route) => expectNotFound(route, partner, idsFor(route)),
  });
}

describe('isolation on every route with ids', () => {
  it('covers the partner-scoped routes', () => {
    expect(routesWithIds().length).toBeGreaterThanOrEqual(20);
    // The sandbox controls are partner-scoped too: every one of them is probed.
    expect(
      routesWithIds()
        .filter((r) => r.url.startsWith('/sandbox/v1/'))
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual([
      'DELETE /sandbox/v1/customers/:customerId/institutionLogins/:institutionLoginId/error',
      'POST /sandbox/v1/customers/:customerId/accounts/:accountId/txpush/events',
      'POST /sandbox/v1/customers/:customerId/clock',
      'POST /sandbox/v1/customers/:customerId/reset',
      'POST /sandbox/v1/customers/:customerId/webhooks/connect',
      'PUT /sandbox/v1/customers/:customerId/institutionLogins/:institutionLoginId/error',
    ]);
    expect(
      routesWithIds()
        .filter((r) => r.url.includes('/simplefin/'))
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual([
      'DELETE /aggregation/v1/customers/:customerId/simplefin/accesses/:accessId',
      'GET /aggregation/v1/customers/:customerId/simplefin/accesses',
      'POST /aggregation/v1/customers/:customerId/simplefin/tokens',
    ]);
  });

  // Every route, one after another: minutes on a loaded machine, so beyond the default timeout.
  it("answers 404 to another partner's ids, changing nothing", { timeout: 300_000 }, async () => {
    const routes = routesWithIds();
    probes.routes = routes.length;
    await expectNotFoundAndNoChange(routes, a, () => ({ ...b1 }));
    probes.otherPartner = routes.length;
  });

  // Every route, one after another: minutes on a loaded machine, so beyond the default timeout.
  it("answers 404 to another customer's ids under the same partner, changing nothing", { timeout: 300_000 }, async () => {
    const routes = routesWithIds().filter((route) => {
      const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!).filter((n) => !(n in PUBLIC_PARAMS) && !PARTNER_WIDE_PARAMS.has(n));
      // Only a customer id, or none (partner-wide records): nothing of another customer's to borrow.
      return names.length >= 2 && (names.includes('customerId') || names.includes('customer_id') || names.includes('consumerId'));
    });
    await expectNotFoundAndNoChange(routes, a, () => ({ ...a1, customerId: a2.customerId, customer_id: a2.customerId, consumerId: a2.consumerId }));
    probes.otherCustomer = routes.length;
  });

  it('still serves the owner (the ids are real)', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/aggregation/v2/customers/${b1.customerId}/accounts/${b1.accountId}`, headers: b.headers });
    expect(res.statusCode).toBe(200);
    const tx = await ctx.app.inject({ method: 'GET', url: `/aggregation/v2/customers/${a1.customerId}/transactions/${a1.transactionId}`, headers: a.headers });
    expect(tx.statusCode).toBe(200);
    const asset = await ctx.app.inject({ method: 'GET', url: `/aggregation/v1/customers/${b1.customerId}/assets/${b1.assetId}`, headers: b.headers });
    expect(asset.statusCode).toBe(200);
  });
});

describe('isolation in Connect', () => {
  const generateRoutes: [string, (w: World) => Record<string, unknown>][] = [
    ['/connect/v2/generate', () => ({})],
    ['/connect/v2/generate/lite', () => ({ institutionId: 101732 })],
    ['/connect/v2/generate/fix', (w) => ({ institutionLoginId: w.institutionLoginId })],
    ['/connect/v2/send/email', () => ({ email: { to: 'isolation@example.com' } })],
  ];

  async function link(partner: TestPartner, w: World): Promise<string> {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/connect/v2/generate',
      headers: partner.headers,
      payload: { partnerId: partner.partnerId, customerId: w.customerId },
    });
    expect(res.statusCode).toBe(200);
    return new URL(res.json().link).search;
  }

  it("answers 404 to links for another partner's customer or login, changing nothing", async () => {
    // Every route with another partner's customer; Fix also with another customer's login under the same partner.
    const cases = [
      ...generateRoutes.map(([url, extra]) => ({ url, customerId: b1.customerId, extra: extra(b1) })),
      { url: '/connect/v2/generate/fix', customerId: a1.customerId, extra: { institutionLoginId: a2.institutionLoginId } },
    ];
    await walkChangingNothing({
      database: ctx.runtime.database,
      ignore: IGNORED_TABLES,
      items: cases,
      blockSize: cases.length,
      name: ({ url, customerId, extra }) => `POST ${url} ${JSON.stringify({ customerId, ...extra })}`,
      walk: async ({ url, customerId, extra }) => {
        const payload = { partnerId: a.partnerId, customerId, ...extra };
        const res = await ctx.app.inject({ method: 'POST', url, headers: a.headers, payload });
        expect(res.statusCode, `${url} ${JSON.stringify(payload)}: ${res.body}`).toBe(404);
      },
    });
  });

  it("keeps a Connect link to its own customer's accounts, logins and sign-ins", async () => {
    const mine = await link(a, a1);
    const theirs = await link(b, b1);
    const headers = (l: string) => ({ 'connect-link': l, accept: 'application/json' });
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/connect/api/signin',
      headers: headers(theirs),
      payload: {
        institutionId: 101732,
        credentials: [
          { id: '101732001', value: 'mfa_text' },
          { id: '101732002', value: 'mfa_text' },
        ],
      },
    });
    const sessionId = signIn.json().sessionId as string;
    const before = await databaseFingerprint(ctx.runtime.database, IGNORED_TABLES);
    for (const other of [a2, b1]) {
      for (const url of [`/connect/api/accounts/${other.accountId}`, `/connect/api/logins/${other.institutionLoginId}`]) {
        const method = 'DELETE';
        const res = await ctx.app.inject({ method, url, headers: headers(mine) });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
      }
    }
    for (const [method, url, payload] of [
      ['GET', `/connect/api/signin/${sessionId}`],
      ['POST', `/connect/api/signin/${sessionId}/mfa`, { answers: [{ id: 'pet', value: 'rex' }] }],
      ['POST', `/connect/api/signin/${sessionId}/accounts`, {}],
    ] as const) {
      const res = await ctx.app.inject({ method, url, headers: headers(mine), ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
    }
    expect(changedTables(before, await databaseFingerprint(ctx.runtime.database, IGNORED_TABLES)), 'tables changed').toEqual([]);
    const logins = (await ctx.app.inject({ url: '/connect/api/logins', headers: headers(mine) })).json().logins;
    expect(logins.map((l: { institutionLoginId: string }) => l.institutionLoginId)).toEqual([a1.institutionLoginId]);
  });
});
