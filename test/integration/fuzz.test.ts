import fs from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../../src/main/app.js';
import { ErrorCatalogue } from '../../src/contract/errors/catalogue.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { addCustomer } from '../helpers/customers.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { hostileQuery, hostileString, hostileXml, invalidBody, walkChangingNothing } from '../helpers/fuzz.js';
import { testDialect } from '../helpers/db.js';

/**
 * Property-based hostile input for every route, generated from the route's own schema: wrong types, missing
 * fields, huge and odd strings, duplicate query parameters, deep and entity-laden XML, bad content types.
 * Every answer must be a documented 4xx (or, for reads, a success), never a 5xx, and nothing may change.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? (testDialect() === 'postgres' ? 25 : 50));
const CODE_STATUS = new Map<string, number>(Object.values(ErrorCatalogue).map((d) => [d.code, d.status]));
/**
 * The request log records every request by design. The institution catalogue is static seed data no route writes,
 * and by far the largest table: reading it at every check would cost more than the requests.
 */
const IGNORED_TABLES = ['request_log', 'institutions', 'institution_catalog'];
/**
 * Routes walked between two fingerprints of the database (each reads every row): a route's requests take far longer
 * than a fingerprint, so larger blocks would save little; a block that changed something is walked again route by
 * route to name the route.
 */
const ROUTES_PER_CHECK = 16;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const tally = { routes: 0, cases: 0, statuses: {} as Record<string, number> };

let ctx: TestContext;
let partner: TestPartner;
let customerId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  partner = await partnerWithToken(ctx);
  customerId = await addCustomer(ctx, partner);
  await ensureInstitutionCatalog(ctx.runtime.database);
});

afterAll(async () => {
  fs.mkdirSync('test-artifacts', { recursive: true });
  fs.writeFileSync(`test-artifacts/fuzz-summary-${testDialect()}.json`, JSON.stringify({ runsPerRoute: RUNS, ...tally }, null, 2));
  await ctx.close();
});

function routesUnderTest(): RegisteredRoute[] {
  return ctx.app.registeredRoutes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !r.url.includes('*'));
}

/** A path with every parameter replaced: hostile values, or (for reads) sometimes the real customer. */
function pathFor(route: RegisteredRoute): fc.Arbitrary<string> {
  const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const values = names.map((name) =>
    name === 'customerId' && !MUTATING.has(route.method) ? fc.oneof(fc.constant(customerId), hostileString) : hostileString.filter((s) => s !== customerId),
  );
  return fc.tuple(...values).map((vals) => {
    let url = route.url;
    names.forEach((name, i) => (url = url.replace(`:${name}`, encodeURIComponent(String(vals[i])))));
    return url;
  });
}

interface Attempt {
  path: string;
  query: string;
  accept: string;
  body?: { payload: string; contentType: string };
}

function attemptFor(route: RegisteredRoute): fc.Arbitrary<Attempt> {
  const schema = (route.schema ?? {}) as Record<string, any>;
  const accept = fc.constantFrom('application/json', 'application/xml', '*/*', 'text/html', 'application/json;q=abc', '');
  const query = fc.option(hostileQuery(schema.querystring), { nil: '' });
  const bodySchema = schema.body ?? { type: 'object', required: ['x'], properties: { x: { type: 'string' } } };
  const body = MUTATING.has(route.method)
    ? fc
        .oneof(
          invalidBody(bodySchema).map((b) => ({ payload: JSON.stringify(b), contentType: 'application/json' })),
          hostileXml.map((x) => ({ payload: x, contentType: 'application/xml' })),
          fc.constantFrom(
            { payload: '{"a":', contentType: 'application/json' },
            { payload: '['.repeat(20000), contentType: 'application/json' },
            { payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
            { payload: '{}', contentType: 'text/plain' },
            { payload: '{}', contentType: 'application/json; charset=utf-7' },
          ),
        )
        .map((b) => b as Attempt['body'])
    : fc.constant(undefined);
  return fc.record({ path: pathFor(route), query, accept, body });
}

/** The code of an error body: `{code}`, or the Connect Components' `{"Errors": {"Error": [{ReasonCode}]}}`. */
function errorCodeOf(body: { code?: string; Errors?: { Error?: Array<{ ReasonCode?: string }> } }): string | undefined {
  return body.code ?? body.Errors?.Error?.[0]?.ReasonCode;
}

/** An element with nothing in it but white space, after an XML declaration or not: an empty body in XML. */
const EMPTY_ELEMENT = /^(?:<\?xml[^?>]*\?>\s*)?(?:<(\w+)\s*>\s*<\/\1>|<\w+\s*\/>)$/;

describe('hostile input on every route', () => {
  // Counterexamples of the property below (fresh seeds): an element holding only white space, and an empty element
  // after a declaration (whatever encoding it names: the bytes are the same), were taken for hostile.
  it('takes an element holding only white space as an empty body, valid where a route requires nothing', async () => {
    for (const payload of ['<r> </r>', '<apply>\n\t</apply>', '<?xml version="1.0" encoding="UTF-7"?><r/>', '<?xml version="1.0"?>\n<r></r>']) {
      expect(EMPTY_ELEMENT.test(payload)).toBe(true);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/aggregation/v1/partners/rules/apply',
        headers: { ...partner.headers, accept: 'application/json', 'content-type': 'application/xml' },
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(EMPTY_ELEMENT.test('<r>x</r>')).toBe(false);
  });

  // Counterexample (seed 20261125): a lone string where an array of strings goes was taken for hostile; it is the
  // one-item array an XML body sends, taken as such on every route, while a value of another kind is still refused.
  it('takes a lone string for an array of strings as that one-item array, and refuses an object there', async () => {
    const send = (payload: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/connect-components/configurations',
        headers: { ...partner.headers, accept: 'application/json', 'content-type': 'application/json' },
        payload,
      });
    const one = await send('{"filterAccounts":"0x10"}');
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json()).toMatchObject({ filterAccounts: ['0x10'] });
    const object = await send('{"filterAccounts":{"nested":{"deep":[1,2,3]}}}');
    expect(object.statusCode, object.body).toBe(400);
    const deleted = await ctx.app.inject({ method: 'DELETE', url: `/connect-components/configurations/${one.json().id}`, headers: partner.headers });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
  });

  it('covers the routes the app registers', () => {
    expect(routesUnderTest().length).toBeGreaterThan(10);
  });

  it('never answers 5xx, always with a documented code, and changes nothing', async () => {
    await walkChangingNothing({
      database: ctx.runtime.database,
      ignore: IGNORED_TABLES,
      items: routesUnderTest(),
      blockSize: ROUTES_PER_CHECK,
      name: (route) => `${route.method} ${route.url}`,
      walk: (route) => hostileRequests(route),
    });
  }, 600_000);
});

/** RUNS hostile requests to the route, each answered with a documented 4xx (or, for a read, a success). */
async function hostileRequests(route: RegisteredRoute): Promise<void> {
  tally.routes++;
  const isApi = route.config.scope === 'api' || route.config.scope === 'api-key';
  await fc.assert(
    fc.asyncProperty(attemptFor(route), async (a) => {
      tally.cases++;
      const res = await ctx.app.inject({
        method: route.method as 'GET',
        url: a.query ? `${a.path}?${a.query}` : a.path,
        headers: { ...partner.headers, accept: a.accept, ...(a.body ? { 'content-type': a.body.contentType } : {}) },
        ...(a.body ? { payload: a.body.payload } : {}),
      });
      tally.statuses[res.statusCode] = (tally.statuses[res.statusCode] ?? 0) + 1;
      const shown = (x: string) => (x.length > 120 ? `${x.slice(0, 120)}…(${x.length} chars)` : x);
      const where = `${route.method} ${route.url} → ${shown(a.path)}?${shown(a.query)} [${res.statusCode}] ${res.body.slice(0, 200)}`;
      expect(res.statusCode, where).toBeLessThan(500);
      // `{}` is a valid body where the route requires nothing in it (whatever charset names the same bytes).
      const declared = route.schema?.body as { required?: string[] } | undefined;
      // An empty body (`{}`, an empty element) is a valid one where the route requires nothing in it.
      const empty = a.body !== undefined && (a.body.payload === '{}' || EMPTY_ELEMENT.test(a.body.payload));
      const emptyIsValid = empty && /json|xml/.test(a.body!.contentType) && declared !== undefined && !declared.required?.length;
      if (MUTATING.has(route.method) && !emptyIsValid) expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
      if (isApi && res.statusCode >= 400) {
        const code = String(res.headers['content-type'] ?? '').includes('xml') ? /<code>(\d+)<\/code>/.exec(res.body)?.[1] : errorCodeOf(res.json());
        expect(CODE_STATUS.has(code ?? ''), `${where}: undocumented code ${code}`).toBe(true);
        expect(CODE_STATUS.get(code!), `${where}: status does not match code ${code}`).toBe(res.statusCode);
      }
    }),
    { numRuns: RUNS },
  );
}
