import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestLogFileOf } from '../../src/platform/db/database.js';
import { redactedLogger } from '../../src/platform/logger.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { type DashboardBrowser, dashboardSignIn } from '../helpers/dashboard.js';

interface Message {
  headers: { name: string; value: string }[];
  body: string | null;
}
interface Detail {
  entry: { id: number; path: string };
  request: Message;
  response: Message;
}

/** A secret to plant: unique to the run, so finding it anywhere means it leaked from here. */
const planted: string[] = [];
function plant(what: string): string {
  const secret = `Planted${what}${planted.length}x${Math.random().toString(36).slice(2, 10)}`;
  planted.push(secret);
  return secret;
}

// The request log kept a Connect link's webhookHeaders in clear (the main database encrypts them), passwords, PINs
// and answers in query parameters and headers whose names no exact list held, and user names and passwords of URLs
// in bodies. Each is planted here through the real app, with the log written to its own file by its thread as the
// service writes it, and looked for in the file's raw bytes and its WAL, in the dashboard's request detail and in
// the service's log lines.
describe('secrets planted in every part of a request', () => {
  let ctx: TestContext;
  let p: TestPartner;
  let dashboard: DashboardBrowser;
  let logs: string;

  beforeEach(async () => {
    planted.length = 0;
    logs = '';
    const sink = new Writable({
      write(chunk, _enc, done) {
        logs += String(chunk);
        done();
      },
    });
    ctx = await createTestContext({}, { logger: redactedLogger('info', sink) }, { onFile: true });
    p = await partnerWithToken(ctx);
    dashboard = await dashboardSignIn(ctx, p.partnerId, p.partnerSecret);
  });
  afterEach(() => ctx.close());

  /** The dashboard's detail of the partner's newest entry whose path contains `path`. */
  async function opened(pathText: string): Promise<Detail> {
    const list = await dashboard.call('GET', `/dashboard/api/requests?path=${encodeURIComponent(pathText)}&limit=1`);
    const [row] = list.json().requests;
    expect(row, pathText).toBeDefined();
    const res = await dashboard.call('GET', `/dashboard/api/requests/${row.id}`);
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  /** Everything the request log holds, as raw bytes: its file and WAL on SQLite (as written by the thread), its rows on PostgreSQL. */
  async function storedBytes(): Promise<string> {
    await ctx.app.requestLog.flush();
    if (ctx.db.sqliteFile) {
      const logFile = requestLogFileOf(ctx.db.sqliteFile);
      const dir = path.dirname(logFile);
      const files = fs.readdirSync(dir).filter((f) => f.startsWith(path.basename(logFile)));
      // The thread's transaction is in the WAL until a checkpoint: both are read.
      expect(files).toContain(`${path.basename(logFile)}-wal`);
      return Buffer.concat(files.map((f) => fs.readFileSync(path.join(dir, f)))).toString('latin1');
    }
    return JSON.stringify(await ctx.runtime.database.kysely.selectFrom('request_log').selectAll().execute());
  }

  it('are redacted in the request log file, its WAL, the dashboard detail and the service log', async () => {
    const customerId = String(await addCustomer(ctx, p));

    // A Connect link whose webhooks carry the receiver's own credentials, under names no rule foresees.
    const hookAuth = plant('HookAuth');
    const hookTenant = plant('HookTenant');
    const innerHeader = plant('InnerHeader');
    const [cbUser, cbPass] = [plant('CbUser'), plant('CbPass')];
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/connect/v2/generate?format=json',
      headers: { ...p.headers, 'content-type': 'application/json' },
      payload: {
        partnerId: p.partnerId,
        customerId,
        webhook: 'https://hooks.example/connect',
        webhookHeaders: { Authorization: `Bearer ${hookAuth}`, 'X-Acme-Tenant': hookTenant },
        webhookData: { callback: `https://${cbUser}:${cbPass}@cb.example/in?ok=1`, headers: { 'X-Inner': innerHeader } },
      },
    });
    expect(json.statusCode, json.body).toBe(200);

    // The same in XML, with a user name and password in a URL the service refuses: the body is logged all the same.
    const xmlHook = plant('XmlHook');
    const [redirUser, redirPass] = [plant('RedirUser'), plant('RedirPass')];
    const xml = await ctx.app.inject({
      method: 'POST',
      url: '/connect/v2/generate?format=xml',
      headers: { ...p.headers, 'content-type': 'application/xml' },
      payload:
        `<connect><partnerId>${p.partnerId}</partnerId><customerId>${customerId}</customerId>` +
        `<webhookHeaders><X-Api-Route>${xmlHook}</X-Api-Route></webhookHeaders>` +
        `<redirectUri>https://${redirUser}:${redirPass}@app.example/done</redirectUri></connect>`,
    });
    expect([xml.statusCode, xml.json().code]).toEqual([400, '10010']);

    // A header map under another name, in a body of another operation (which drops the member it does not know).
    const extraHeader = plant('ExtraHeader');
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/aggregation/v2/customers/testing?with=extraHeaders',
      headers: { ...p.headers, 'content-type': 'application/json' },
      payload: { username: `planted_${Date.now()}`, firstName: 'Ada', extraHeaders: { 'X-Anything': extraHeader } },
    });
    expect(created.statusCode, created.body).toBe(201);

    // Query parameters named like secrets, however spelled, and a URL with a user name and password in the query.
    const query = {
      pwd: plant('Pwd'),
      pass: plant('Pass'),
      pin: plant('Pin'),
      answer: plant('Answer'),
      'password%00': plant('PasswordNul'),
      'token[]': plant('TokenArray'),
      'user[password]': plant('UserPassword'),
      'Pass%77ord': plant('EncodedName'),
      mfa_answer: plant('MfaAnswer'),
    };
    const [nextUser, nextPass] = [plant('NextUser'), plant('NextPass')];
    const qs = Object.entries(query)
      .map(([name, value]) => `${name}=${value}`)
      .join('&');
    const listed = await ctx.app.inject({
      method: 'GET',
      url: `/aggregation/v1/customers?search=ada&${qs}&next=https://${nextUser}:${nextPass}@back.example/x&start=1`,
      headers: p.headers,
    });
    // Refused for the NUL in a name (10010), and logged all the same.
    expect([listed.statusCode, listed.json().code]).toEqual([400, '10010']);

    // Headers named like secrets, and a user name and password in a URL header.
    const headers = { 'x-pwd': plant('XPwd'), 'x-pin': plant('XPin'), 'x-mfa-answer': plant('XMfaAnswer'), 'x-passcode': plant('XPasscode') };
    const [refUser, refPass] = [plant('RefUser'), plant('RefPass')];
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/aggregation/v1/partners/me?with=headers',
      headers: { ...p.headers, ...headers, referer: `https://${refUser}:${refPass}@ref.example/page` },
    });
    expect(me.statusCode, me.body).toBe(200);

    // The request log: no planted secret in its file, its WAL (or its rows), nor in the dashboard's details.
    const stored = await storedBytes();
    expect(stored).toContain('[redacted]');
    const details = {
      json: await opened('format=json'),
      xml: await opened('format=xml'),
      extra: await opened('with=extraHeaders'),
      query: await opened('search=ada'),
      headers: await opened('with=headers'),
    };
    const shown = JSON.stringify(details);
    for (const secret of planted) {
      expect(stored, `${secret} in the request log's stored bytes`).not.toContain(secret);
      expect(shown, `${secret} in the dashboard's request detail`).not.toContain(secret);
    }

    // ...while what is not secret is kept: header names, other fields and parameters, hosts.
    expect(JSON.parse(details.json.request.body!)).toEqual({
      partnerId: p.partnerId,
      customerId,
      webhook: 'https://hooks.example/connect',
      webhookHeaders: { Authorization: '[redacted]', 'X-Acme-Tenant': '[redacted]' },
      webhookData: { callback: 'https://[redacted]@cb.example/in?ok=1', headers: { 'X-Inner': '[redacted]' } },
    });
    expect(details.xml.request.body).toBe(
      `<connect><partnerId>${p.partnerId}</partnerId><customerId>${customerId}</customerId>` +
        '<webhookHeaders>[redacted]</webhookHeaders><redirectUri>https://[redacted]@app.example/done</redirectUri></connect>',
    );
    expect(JSON.parse(details.extra.request.body!).extraHeaders).toEqual({ 'X-Anything': '[redacted]' });
    const redactedQuery = Object.keys(query)
      .map((name) => `${name}=[redacted]`)
      .join('&');
    expect(details.query.entry.path).toBe(`/aggregation/v1/customers?search=ada&${redactedQuery}&next=https://[redacted]@back.example/x&start=1`);
    const headerValue = (name: string) => details.headers.request.headers.find((h) => h.name === name)?.value;
    for (const name of Object.keys(headers)) expect(headerValue(name), name).toBe('[redacted]');
    expect(headerValue('referer')).toBe('https://[redacted]@ref.example/page');

    // The service's log lines follow the same rules for what they carry of a request: its URL.
    expect(logs).toContain('request completed');
    expect(logs).toContain(`search=ada&${redactedQuery}&next=https://[redacted]@back.example/x`);
    for (const secret of planted) expect(logs, `${secret} in the service log`).not.toContain(secret);
    for (const line of logs.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });
});
