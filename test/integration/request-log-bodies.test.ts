import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { NOT_STORED, STATEMENT_FILE_NOT_STORED } from '../../src/modules/requestlog/redact.js';
import { listRequestLog } from '../../src/modules/requestlog/service.js';
import { loginForm } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { linkFor } from '../helpers/connect.js';
import { addCustomer } from '../helpers/customers.js';
import { type DashboardBrowser, dashboardSignIn } from '../helpers/dashboard.js';

interface Message {
  headers: { name: string; value: string }[];
  body: string | null;
  bytes: number | null;
  truncated: boolean;
  omitted: string | null;
}
interface Detail {
  entry: { id: number; method: string; path: string; status: number; requestId: string };
  request: Message;
  response: Message;
}

const header = (m: Message, name: string) => m.headers.find((h) => h.name === name)?.value;

/** Everything the log stores for a partner, as one text: no secret may be in it. */
async function storedText(ctx: TestContext, partnerId: string): Promise<string> {
  await ctx.app.requestLog.flush();
  return JSON.stringify(await ctx.runtime.database.kysely.selectFrom('request_log').selectAll().where('partner_id', '=', partnerId).execute());
}

describe('headers and bodies in the request log', () => {
  let ctx: TestContext;
  let p: TestPartner;
  let dashboard: DashboardBrowser;

  /** The newest logged call of the partner whose path contains `path`, opened as the dashboard opens a row. */
  async function opened(path: string, status?: string): Promise<Detail> {
    await ctx.app.requestLog.flush();
    const list = await dashboard.call('GET', `/dashboard/api/requests?path=${encodeURIComponent(path)}${status ? `&status=${status}` : ''}&limit=1`);
    const [row] = list.json().requests;
    expect(row, path).toBeDefined();
    const res = await dashboard.call('GET', `/dashboard/api/requests/${row.id}`);
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  beforeEach(async () => {
    ctx = await createTestContext({ LEDGERLINK_APP_KEY_HEADERS: 'Finicity-App-Key', LEDGERLINK_APP_TOKEN_HEADERS: 'Finicity-App-Token' });
    p = await partnerWithToken(ctx);
    dashboard = await dashboardSignIn(ctx, p.partnerId, p.partnerSecret);
  });
  afterEach(() => ctx.close());

  it('keeps partner authentication in JSON with the secret, the token and the app key redacted', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/aggregation/v2/partners/authentication',
      headers: { 'service-app-key': p.appKey, 'content-type': 'application/json', 'x-request-id': 'auth-json-1' },
      payload: JSON.stringify({ partnerId: p.partnerId, partnerSecret: p.partnerSecret }),
    });
    const token = res.json().token as string;
    const d = await opened('/partners/authentication', '200');
    expect(d.entry).toMatchObject({ method: 'POST', status: 200, requestId: 'auth-json-1' });
    expect(JSON.parse(d.request.body!)).toEqual({ partnerId: p.partnerId, partnerSecret: '[redacted]' });
    expect(JSON.parse(d.response.body!)).toEqual({ token: '[redacted]' });
    expect(header(d.request, 'service-app-key')).toBe('[redacted]');
    expect(header(d.request, 'content-type')).toBe('application/json');
    expect(header(d.response, 'x-request-id')).toBe('auth-json-1');
    expect(header(d.response, 'content-type')).toMatch(/^application\/json/);
    expect(d.request).toMatchObject({ bytes: Buffer.byteLength(JSON.stringify({ partnerId: p.partnerId, partnerSecret: p.partnerSecret })), truncated: false });
    expect(d.response).toMatchObject({ bytes: res.rawPayload.length, truncated: false, omitted: null });
    const stored = await storedText(ctx, p.partnerId);
    for (const secret of [p.partnerSecret, p.appKey, token, p.token]) expect(stored).not.toContain(secret);
  });

  it('keeps partner authentication in XML with the secret and the token redacted', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/aggregation/v2/partners/authentication',
      headers: { 'service-app-key': p.appKey, 'content-type': 'application/xml', accept: 'application/xml' },
      payload: `<credentials><partnerId>${p.partnerId}</partnerId><partnerSecret>${p.partnerSecret}</partnerSecret></credentials>`,
    });
    expect(res.body).toContain('<token>');
    const token = /<token>([^<]+)<\/token>/.exec(res.body)![1]!;
    const d = await opened('/partners/authentication', '200');
    expect(d.request.body).toBe(`<credentials><partnerId>${p.partnerId}</partnerId><partnerSecret>[redacted]</partnerSecret></credentials>`);
    expect(d.response.body).toMatch(/<access><token>\[redacted\]<\/token><\/access>$/);
    const stored = await storedText(ctx, p.partnerId);
    for (const secret of [p.partnerSecret, p.appKey, token]) expect(stored).not.toContain(secret);
  });

  it('redacts a secret the XML parser reads from a CDATA section or past a comment', async () => {
    for (const [n, secret] of [
      `<![CDATA[${p.partnerSecret}]]>`,
      `<!---->${p.partnerSecret}`,
      `${p.partnerSecret.slice(0, 5)}<!-- -->${p.partnerSecret.slice(5)}`,
    ].entries()) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/aggregation/v2/partners/authentication?xml=${n}`,
        headers: { 'service-app-key': p.appKey, 'content-type': 'application/xml' },
        payload: `<credentials><partnerId>${p.partnerId}</partnerId><partnerSecret>${secret}</partnerSecret></credentials>`,
      });
      expect(res.statusCode, secret).toBe(200);
      const d = await opened(`xml=${n}`);
      expect(d.request.body).toBe(`<credentials><partnerId>${p.partnerId}</partnerId><partnerSecret>[redacted]</partnerSecret></credentials>`);
    }
    const customerId = await addCustomer(ctx, p);
    await ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/institutions/101732/accounts/addall`,
      headers: { ...p.headers, 'content-type': 'application/xml' },
      payload:
        '<accounts><credentials><loginField><id>101732001</id><name>Banking Userid</name><value><![CDATA[cdata-user-77]]></value></loginField>' +
        '<loginField><id>101732002</id><name>Banking Password</name><value><!---->comment-pass-77</value></loginField></credentials></accounts>',
    });
    const d = await opened('/accounts/addall');
    expect(d.request.body).toContain(
      '<value>[redacted]</value></loginField><loginField><id>101732002</id><name>Banking Password</name><value>[redacted]</value>',
    );
    const stored = await storedText(ctx, p.partnerId);
    for (const secret of [p.partnerSecret, 'cdata-user-77', 'comment-pass-77']) expect(stored).not.toContain(secret);
  });

  it('keeps no byte of a body no parser took (unsupported type, malformed, too large), and says so', async () => {
    const refused: { n: number; type: string; payload: string; status: number; code: string }[] = [
      { n: 0, type: 'application/x-www-form-urlencoded', payload: 'partnerSecret=Form-secret-0&partnerId=1', status: 415, code: '10041' },
      { n: 1, type: 'application/json', payload: "{'partnerSecret':'Quote-secret-1','partnerId':'1'}", status: 400, code: '10040' },
      { n: 2, type: 'application/json', payload: '{partnerSecret:"Bare-secret-2",partnerId:"1"}', status: 400, code: '10040' },
      { n: 3, type: 'text/plain', payload: '{"partnerSecret":"Plain-secret-3"}', status: 415, code: '10041' },
      { n: 4, type: 'application/xml', payload: '<c><partnerSecret>Broken-secret-4</partnerSecret>', status: 400, code: '10040' },
      { n: 5, type: 'application/json', payload: `{"p\u0061rtnerSecret":"Large-secret-5","pad":"${'x'.repeat(1_100_000)}"}`, status: 413, code: '10042' },
    ];
    for (const r of refused) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/aggregation/v2/partners/authentication?refused=${r.n}`,
        headers: { 'service-app-key': p.appKey, 'content-type': r.type },
        payload: r.payload,
      });
      expect([res.statusCode, res.json().code], r.payload.slice(0, 60)).toEqual([r.status, r.code]);
      const d = await opened(`refused=${r.n}`);
      expect(d.request).toMatchObject({ body: NOT_STORED, bytes: Buffer.byteLength(r.payload), truncated: false, omitted: null });
      expect(header(d.request, 'content-type')).toBe(r.type);
    }
    const stored = await storedText(ctx, p.partnerId);
    for (const secret of ['Form-secret-0', 'Quote-secret-1', 'Bare-secret-2', 'Plain-secret-3', 'Broken-secret-4', 'Large-secret-5']) {
      expect(stored).not.toContain(secret);
    }
  });

  it('keeps a JSON body as its parser read it: a secret named with escapes is redacted', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/aggregation/v2/partners/authentication?escaped=1',
      headers: { 'service-app-key': p.appKey, 'content-type': 'application/json' },
      payload: `{ "partnerId" : "${p.partnerId}",\n "p\\u0061rtner\\u0053ecret": "${p.partnerSecret}" }`,
    });
    expect(res.statusCode).toBe(200);
    const d = await opened('escaped=1');
    expect(d.request.body).toBe(`{"partnerId":"${p.partnerId}","partnerSecret":"[redacted]"}`);
    expect(await storedText(ctx, p.partnerId)).not.toContain(p.partnerSecret);
  });

  it('keeps a failed authentication and a secret change with both secrets redacted', async () => {
    const newSecret = 'Brand-new-secret-77';
    const failed = await ctx.app.inject({
      method: 'POST',
      url: '/aggregation/v2/partners/authentication',
      headers: { 'service-app-key': p.appKey },
      payload: { partnerId: p.partnerId, partnerSecret: 'Not-the-secret-1' },
    });
    expect(failed.json().code).toBe('10001');
    const d401 = await opened('/partners/authentication', '401');
    expect(JSON.parse(d401.request.body!)).toEqual({ partnerId: p.partnerId, partnerSecret: '[redacted]' });
    expect(JSON.parse(d401.response.body!)).toMatchObject({ code: '10001' });

    const changed = await ctx.app.inject({
      method: 'PUT',
      url: '/aggregation/v2/partners/authentication',
      headers: { 'service-app-key': p.appKey, accept: 'application/xml', 'content-type': 'application/xml' },
      payload: `<credentials><partnerId>${p.partnerId}</partnerId><partnerSecret>${p.partnerSecret}</partnerSecret><newPartnerSecret>${newSecret}</newPartnerSecret></credentials>`,
    });
    expect(changed.statusCode).toBe(204);
    const d204 = await opened('/partners/authentication', '204');
    expect(d204.entry.method).toBe('PUT');
    expect(d204.request.body).toContain('<partnerSecret>[redacted]</partnerSecret><newPartnerSecret>[redacted]</newPartnerSecret>');
    expect(d204.response).toMatchObject({ body: null, bytes: 0, omitted: null });

    await ctx.app.inject({
      method: 'PUT',
      url: '/aggregation/v2/partners/authentication',
      headers: { 'service-app-key': p.appKey },
      payload: { partnerId: p.partnerId, partnerSecret: newSecret, newPartnerSecret: 'Third-secret-2027' },
    });
    const json = await opened('/partners/authentication', '204');
    expect(JSON.parse(json.request.body!)).toEqual({ partnerId: p.partnerId, partnerSecret: '[redacted]', newPartnerSecret: '[redacted]' });
    const stored = await storedText(ctx, p.partnerId);
    for (const secret of [p.partnerSecret, newSecret, 'Third-secret-2027', 'Not-the-secret-1']) expect(stored).not.toContain(secret);
  });

  it('redacts app key and token headers under their configured names, and institution credentials in bodies', async () => {
    const customerId = await addCustomer(ctx, p);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/institutions/101732/accounts/addall`,
      headers: { 'finicity-app-key': p.appKey, 'finicity-app-token': p.token, accept: 'application/json' },
      payload: {
        credentials: [...loginForm(101732, 'ofx-user-4711', 'ofx-password-4711').credentials, { id: '3', name: 'Setup Token', value: 'aHR0cHM6Ly9zZXR1cA' }],
      },
    });
    expect(res.statusCode).toBeLessThan(500);
    const d = await opened('/accounts/addall');
    expect(header(d.request, 'finicity-app-key')).toBe('[redacted]');
    expect(header(d.request, 'finicity-app-token')).toBe('[redacted]');
    expect(JSON.parse(d.request.body!).credentials).toEqual([
      { id: '101732001', name: 'Banking Userid', value: '[redacted]' },
      { id: '101732002', name: 'Banking Password', value: '[redacted]' },
      { id: '3', name: 'Setup Token', value: '[redacted]' },
    ]);
    const stored = await storedText(ctx, p.partnerId);
    for (const secret of [p.appKey, p.token, 'ofx-user-4711', 'ofx-password-4711', 'aHR0cHM6Ly9zZXR1cA']) expect(stored).not.toContain(secret);
  });

  it("redacts secrets in answers: a webhook signing key, a Connect link's signature", async () => {
    const keyAnswer = await ctx.app.inject({ method: 'GET', url: '/connect/v2/webhooks/signingKey', headers: p.headers });
    const signingKey = keyAnswer.json().signingKey as string;
    expect(signingKey.length).toBeGreaterThan(16);
    expect(JSON.parse((await opened('/webhooks/signingKey')).response.body!)).toEqual({ signingKey: '[redacted]' });
    const customerId = await addCustomer(ctx, p);
    const link = await linkFor(ctx, p, 'full', { customerId });
    const signature = new URL(link).searchParams.get('signature')!;
    const shown = JSON.parse((await opened('/connect/v2/generate')).response.body!).link as string;
    expect(shown).toContain('signature=[redacted]');
    expect(shown).toContain(`customerId=${customerId}`);
    const stored = await storedText(ctx, p.partnerId);
    for (const secret of [signingKey, signature]) expect(stored).not.toContain(secret);
  });

  it('says when a refused request was not read, and keeps the answer', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/aggregation/v2/customers/testing',
      headers: { ...p.headers, 'service-app-token': 'expired-or-wrong' },
      payload: { username: 'never-read' },
    });
    expect(res.json().code).toBe('10022');
    const d = await opened('/customers/testing');
    expect(d.request).toMatchObject({ body: null, bytes: null, omitted: 'not-read' });
    expect(JSON.parse(d.response.body!)).toMatchObject({ code: '10022' });
    expect(await storedText(ctx, p.partnerId)).not.toContain('never-read');
  });

  it('keeps at most 8 KB of a 1 MB request body and of a long answer, marked as cut', async () => {
    const huge = JSON.stringify({ username: 'big-body', firstName: 'x'.repeat(1_000_000 - 40) });
    expect(huge.length).toBeGreaterThan(999_000);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/aggregation/v2/customers/testing',
      headers: { ...p.headers, 'content-type': 'application/json' },
      payload: huge,
    });
    expect(res.statusCode).toBeLessThan(500);
    const d = await opened('/customers/testing');
    expect(d.request.bytes).toBe(Buffer.byteLength(huge));
    expect(d.request.truncated).toBe(true);
    expect(d.request.body!.length).toBeLessThanOrEqual(8192);
    expect(d.request.body!.startsWith('{"username":"big-body","firstName":"xxx')).toBe(true);

    for (let i = 0; i < 30; i++) await addCustomer(ctx, p, { firstName: `F${i}-${'n'.repeat(200)}`, lastName: 'L'.repeat(100) });
    const list = await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/customers?limit=50', headers: p.headers });
    expect(list.rawPayload.length).toBeGreaterThan(8192);
    const listed = await opened('/aggregation/v1/customers?limit=50');
    expect(listed.response).toMatchObject({ bytes: list.rawPayload.length, truncated: true, omitted: null });
    expect(listed.response.body).toBe(list.body.slice(0, 8192));

    const rows = await ctx.runtime.database.kysely
      .selectFrom('request_log')
      .select(['request_body', 'response_body'])
      .where('partner_id', '=', p.partnerId)
      .execute();
    for (const r of rows) {
      expect(r.request_body?.length ?? 0).toBeLessThanOrEqual(8192);
      expect(r.response_body?.length ?? 0).toBeLessThanOrEqual(8192);
    }
  });

  it("opens only the partner's own entries: another partner's is not found, exactly like an unknown one", async () => {
    const other = await partnerWithToken(ctx);
    await ctx.app.inject({ method: 'GET', url: '/aggregation/v1/partners/me?whose=other', headers: other.headers });
    await ctx.app.requestLog.flush();
    const [theirs] = await listRequestLog(ctx.runtime.database.kysely, { partnerId: other.partnerId, path: 'whose=other' });
    const refused = await dashboard.call('GET', `/dashboard/api/requests/${theirs!.id}`);
    const unknown = await dashboard.call('GET', '/dashboard/api/requests/999999999');
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: '14001' });
    expect(refused.json().code).toBe(unknown.json().code);
    expect(refused.json().message.replace(String(theirs!.id), 'N')).toBe(unknown.json().message.replace('999999999', 'N'));
    const bad = await dashboard.call('GET', '/dashboard/api/requests/abc');
    expect([bad.statusCode, bad.json().code]).toEqual([400, '10010']);
    const theirDashboard = await dashboardSignIn(ctx, other.partnerId, other.partnerSecret);
    expect((await theirDashboard.call('GET', `/dashboard/api/requests/${theirs!.id}`)).json().entry.path).toBe('/aggregation/v1/partners/me?whose=other');
  });

  it('never keeps a statement file, which holds full account numbers, only its size', async () => {
    await ensureInstitutionCatalog(ctx.runtime.database);
    const customerId = await addCustomer(ctx, p);
    const file = 'Date,Description,Amount,Account Number\n03/02/2026,COFFEE,-4.50,5500111122223333\n';
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/institutions/101732/statements`,
      headers: { ...p.headers, 'content-type': 'text/csv' },
      payload: file,
    });
    expect(res.statusCode, res.body).toBe(200);
    const d = await opened('/statements', '200');
    expect(d.request).toMatchObject({ body: STATEMENT_FILE_NOT_STORED, bytes: Buffer.byteLength(file) });
    expect(await storedText(ctx, p.partnerId)).not.toContain('5500111122223333');
  });
});
