import fs from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCatalogue } from '../../src/contract/errors/catalogue.js';
import { renderReferencePage } from '../../src/http/plugins/openapi-html.js';
import { formatOpenApiDocument, generateOpenApiDocument } from '../../src/main/openapi-document.js';
import { createTestContext } from '../helpers/context.js';

type Json = Record<string, any>;
const COMMITTED = new URL('../../openapi/ledgerlink.openapi.json', import.meta.url);
const REFERENCE: Json[] = JSON.parse(fs.readFileSync(new URL('../fixtures/reference-operations.json', import.meta.url), 'utf8'));
const COMPAT_DOC = fs.readFileSync(new URL('../../docs/compatibility.md', import.meta.url), 'utf8');

/**
 * Operations of the real-world service that Ledgerlink does not offer (yet), or offers differently, each with
 * its justification in docs/compatibility.md (the test checks the doc names the operationId).
 */
const INTENDED_DIFFERENCES: Record<string, string> = {};

/**
 * Success statuses of the reference an operation of Ledgerlink never answers, each with its reason in
 * docs/compatibility.md (the test checks the doc names the operationId).
 */
const SUCCESS_DIFFERENCES: Record<string, string[]> = {
  // The reference's live owner read may need an MFA answer; Ledgerlink answers the owners a refresh stored.
  GetAccountOwner: ['203'],
  // The reference's 204 is for a portfolio without Fannie Mae reports; a Ledgerlink portfolio always has reports.
  GetPortfolioByPathParamPortFolioID: ['204'],
  // The reconnection's sign-in happens in the hosted Connect app, which asks the MFA questions there.
  'post-reconnections': ['203'],
};

/**
 * Operations of the reference (the whole public description) that later work will add; the test fails once one
 * exists, so the list only shrinks.
 */
const PENDING = new Set<string>([
  'AddBusinessDetails',
  'GenerateFcraPaymentSuccessIndicators',
  'GenerateForesightAnalyticsFirstThirdPartyNonCraReport',
  'GenerateForesightAnalyticsNonCraReport',
  'GeneratePaymentRiskInsightsReport',
  'GeneratePaymentSuccessIndicators',
  'GeneratePayStatementReport',
  'GenerateSBCAMetricsReport',
  'GenerateTransferBillPaySwitchUrl',
  'GenerateTransferDepositSwitchUrl',
  'GenerateVOEPayrollReport',
  'GenerateVOETransactionsReport',
  'GenerateVOIEPaystubReport',
  'GenerateVOIEPaystubWithTXVerifyReport',
  'GetAccountDetailsByAccountId',
  'GetAccountDetailsByInstitutionLoginId',
  'getAllDepositSwitches',
  'getAllExternalDepositSwitches',
  'getAllPaySwitches',
  'getBillPaySwitchDetails',
  'GetBusinessByCustomer',
  'GetBusinessById',
  'GetDataSharingConsentsByCustomerId',
  'GetDataSharingConsentsByID',
  'getDepositSwitchDetails',
  'GetFCRAPaymentSuccessIndicator',
  'GetFcraPaymentSuccessIndicators',
  'GetLocationMatches',
  'GetPaymentSuccessIndicator',
  'GetPaymentSuccessIndicators',
  'getResellerBillingReport',
  'RefreshVOIEPayrollReport',
  'RevokeDataSharingConsentById',
  'RevokeDataSharingConsentByInstitutionLoginID',
  'UpdateBusiness',
]);

let doc: Json;
beforeAll(async () => {
  doc = await generateOpenApiDocument();
});

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];
function operations(d: Json): Array<{ method: string; path: string; op: Json }> {
  return Object.entries(d.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([m]) => METHODS.includes(m))
      .map(([m, op]) => ({ method: m.toUpperCase(), path, op: op as Json })),
  );
}

/** Whether a schema or media type object shows an example somewhere inside it (following $refs). */
function hasExample(node: unknown, d: Json): boolean {
  if (Array.isArray(node)) return node.some((n) => hasExample(n, d));
  if (!node || typeof node !== 'object') return false;
  const obj = node as Json;
  if ('example' in obj || 'examples' in obj) return true;
  if (typeof obj.$ref === 'string') return hasExample(d.components.schemas[obj.$ref.split('/').pop()!], d);
  return Object.values(obj).some((v) => hasExample(v, d));
}

describe('the OpenAPI description', () => {
  it('matches the committed openapi/ledgerlink.openapi.json (run npm run openapi)', () => {
    expect(fs.readFileSync(COMMITTED, 'utf8')).toBe(formatOpenApiDocument(doc));
  });

  it('is lint-clean under Redocly recommended-strict', async () => {
    const config = await createConfig({ extends: ['recommended-strict'] } as never);
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.ruleId}: ${p.message} @ ${p.location?.[0]?.pointer}`)).toEqual([]);
  });

  it('gives every operation an operationId, summary, tags, security, error bodies, examples, and JSON and XML media types', () => {
    const ids = new Set<string>();
    for (const { method, path, op } of operations(doc)) {
      const where = `${method} ${path}`;
      expect(op.operationId, where).toMatch(/^[A-Z][A-Za-z0-9]+$/);
      expect(ids.has(op.operationId), `duplicate ${op.operationId}`).toBe(false);
      ids.add(op.operationId);
      expect(op.summary, where).toBeTruthy();
      expect(op.tags?.length, where).toBeGreaterThan(0);
      expect(op.security ?? doc.security, where).toBeDefined();
      const statuses = Object.keys(op.responses);
      expect(
        statuses.some((s) => s.startsWith('4')),
        where,
      ).toBe(true);
      if (op.requestBody) expect(hasExample(op.requestBody, doc), `${where} request body example`).toBe(true);
      for (const [status, res] of Object.entries(op.responses as Json)) {
        if (status === '204') continue;
        // Connect Components are JSON only, with an error body of their own, as the reference describes them.
        if (path.startsWith('/connect-components/')) {
          if (status.startsWith('2')) expect(hasExample(res, doc), `${where} ${status} example`).toBe(true);
          expect(Object.keys(res.content ?? {}), `${where} ${status}`).toEqual(['application/json']);
          if (status.startsWith('4') || status.startsWith('5'))
            expect(res.content['application/json'].schema.$ref).toBe('#/components/schemas/ComponentsErrorBody');
          continue;
        }
        // The test operations of webhook subscriptions and Set Customer App ID answer 200 with no body, as the reference declares them.
        if (status === '200' && (op.operationId?.startsWith('TestWebhookSubscription') || op.operationId === 'SetCustomerAppID')) {
          expect(res.content, where).toBeUndefined();
          continue;
        }
        if (status.startsWith('2')) expect(hasExample(res, doc), `${where} ${status} example`).toBe(true);
        if (status === '200' && op.operationId === 'GetInstitutionAsset') {
          expect(Object.keys(res.content), where).toEqual(['image/svg+xml']);
          continue;
        }
        // A statement and an asset are files in the reference's one media type for them.
        if (status === '200' && (op.operationId === 'GetCustomerAccountStatement' || op.operationId === 'GetAssetByCustomerID')) {
          expect(Object.keys(res.content), where).toEqual(['application/octet-stream']);
          continue;
        }
        // Exports answer the file in its format's media type, each with an example file.
        if (status === '200' && op.operationId?.startsWith('Export')) {
          expect(Object.keys(res.content), where).toEqual(['text/csv', 'application/x-ofx', 'application/qif']);
          for (const media of Object.values(res.content as Record<string, Json>)) expect(media.schema.examples?.length, where).toBe(1);
          continue;
        }
        expect(Object.keys(res.content ?? {}).sort(), `${where} ${status}`).toEqual(['application/json', 'application/xml']);
        if (status.startsWith('4') || status.startsWith('5')) expect(res.content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBody');
      }
    }
  });

  it('describes every route the app registers, apart from the description, its docs page, the hosted Connect app and the dashboard', async () => {
    const ctx = await createTestContext();
    try {
      const documented = new Set(operations(doc).map(({ method, path }) => `${method} ${path}`));
      const routes = ctx.app.registeredRoutes.filter((r) => r.method !== 'HEAD');
      const name = (r: (typeof routes)[number]) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`;
      // Routes that do not speak the API's JSON/XML negotiation are web pages, files and the browser calls of the
      // hosted Connect app and of the dashboard (and / , which sends a browser there), and the `ledgerlink` command's
      // client API (/cli, docs/cli.md), and the SimpleFIN protocol for SimpleFIN clients (/simplefin,
      // docs/simplefin-server.md), never partner operations; they may live only under these prefixes.
      const pages = routes.filter((r) => r.config.scope !== 'api' && r.config.scope !== 'api-key' && !documented.has(name(r)));
      expect(
        pages.map(name).filter((r) => !/^[A-Z]+ \/(openapi\.(json|yaml)|docs(\/.*)?|connect(\/.*)?|dashboard(\/.*)?|cli\/.*|simplefin\/.*)?$/.test(r)),
      ).toEqual([]);
      const api = routes.filter((r) => !pages.includes(r)).map(name);
      expect(api.filter((r) => !documented.has(r))).toEqual([]);
      // The walk does see the routes: every documented operation is among them.
      expect([...documented].filter((d) => !api.includes(d))).toEqual([]);
      expect(pages.map(name)).toContain('GET /openapi.json');
    } finally {
      await ctx.close();
    }
  });

  it('is served at /openapi.json, /openapi.yaml and as a docs page at /docs without credentials', async () => {
    const ctx = await createTestContext();
    try {
      const json = await ctx.app.inject({ url: '/openapi.json' });
      expect(json.statusCode).toBe(200);
      expect(json.json().openapi).toBe('3.1.0');
      const yaml = await ctx.app.inject({ url: '/openapi.yaml' });
      expect(yaml.headers['content-type']).toMatch(/yaml/);
      expect(yaml.body).toContain('openapi: 3.1.0');
      const page = await ctx.app.inject({ url: '/docs/' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<h1 id="overview-title">Ledgerlink API');
      expect(page.body).not.toMatch(/<script|https?:\/\/(cdn|unpkg|cdnjs)/);
      expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'self'; img-src 'self';/);
      // The paths the earlier docs page served the description at keep working.
      expect((await ctx.app.inject({ url: '/docs/json' })).json()).toEqual(json.json());
      expect((await ctx.app.inject({ url: '/docs/yaml' })).body).toBe(yaml.body);
      const style = await ctx.app.inject({ url: '/docs/assets/docs.css' });
      expect(style.headers['content-type']).toMatch(/^text\/css/);
      // Only the page's own files are served from there.
      for (const url of ['/docs/assets/nothing.js', '/docs/assets/%2e%2e%2f%2e%2e%2fpackage.json']) {
        const missing = await ctx.app.inject({ url });
        expect(missing.statusCode).toBe(404);
        expect(missing.json()).toMatchObject({ code: '14001' });
      }
    } finally {
      await ctx.close();
    }
  });
});

describe('the docs page', () => {
  it("lists an answer's fields once: a later answer with the same fields links to the first one's list", () => {
    const html = renderReferencePage({ description: doc, errors: ErrorCatalogue, logoUrl: '/logo.svg' });
    const lists = [...html.matchAll(/<details id="([^"]+)"><summary>Fields of the \w+ answer<\/summary>(.*?)<\/details>/g)];
    expect(lists.length).toBeGreaterThan(0);
    expect(new Set(lists.map(([, , fields]) => fields)).size).toBe(lists.length);
    const links = [...html.matchAll(/<p>Fields as in the <a href="#([^"]+)">/g)];
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      const target = lists.find(([, id]) => id === link[1]);
      expect(target, link[1]).toBeDefined();
      expect(target!.index).toBeLessThan(link.index);
    }
  });
});

describe('compatibility with the real-world service', () => {
  const ours = () => new Map(operations(doc).map((o) => [`${o.method} ${o.path}`, o.op]));

  it.each(REFERENCE.map((r) => [r.operationId, r] as const))(
    '%s has the same method, path, parameters and success status, or a documented difference',
    (_id, ref) => {
      const op = ours().get(`${ref.method} ${ref.path}`);
      if (!op && PENDING.has(ref.operationId)) return;
      expect(PENDING.has(ref.operationId), `${ref.operationId} is implemented: remove it from PENDING`).toBe(false);
      if (!op) {
        expect(
          INTENDED_DIFFERENCES[ref.operationId],
          `${ref.operationId} (${ref.method} ${ref.path}) is missing and not listed as an intended difference`,
        ).toBeDefined();
        expect(COMPAT_DOC).toContain(ref.operationId);
        return;
      }
      expect(INTENDED_DIFFERENCES[ref.operationId], `${ref.operationId} is implemented: remove it from the intended differences`).toBeUndefined();
      const params = ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'query' || p.in === 'path').map((p) => `${p.in}:${p.name}`);
      for (const p of ref.parameters as Json[]) expect(params, `${ref.operationId} lacks ${p.in} parameter ${p.name}`).toContain(`${p.in}:${p.name}`);
      const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      const unanswered = SUCCESS_DIFFERENCES[ref.operationId] ?? [];
      if (unanswered.length > 0) expect(COMPAT_DOC).toContain(ref.operationId);
      for (const s of ref.success as string[]) if (!unanswered.includes(s)) expect(success, `${ref.operationId} success status`).toContain(s);
    },
  );
});
