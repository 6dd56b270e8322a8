import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUnavailable } from '../../src/http/plugins/errors.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { linkFor } from '../helpers/connect.js';
import { partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { createTestDatabase, TEST_DATABASE_URL, testDialect } from '../helpers/db.js';
import { ofxDay, ofxStatementFile } from '../helpers/statement-files.js';
import { FINBANK, openStatementContext, statementUploadPath } from '../helpers/statement-uploads.js';

const MB = 1024 * 1024;

interface OpenUpload {
  /** Resolves with the answer's status, headers and body, and whether the server closed the connection. */
  answer: Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; closed: boolean }>;
  /** Sends more of the body (the request stays open until `finish`). */
  send(bytes: Buffer | string): void;
  finish(bytes?: Buffer | string): void;
  /** Hangs up mid-body. */
  abort(): void;
  bytesSent(): number;
}

/** A request whose body is sent a piece at a time, as a slow or hostile client sends a large file. */
function openUpload(base: string, path: string, headers: Record<string, string>, declaredLength: number): OpenUpload {
  let sent = 0;
  const req = http.request(`${base}${path}`, { method: 'POST', agent: false, headers: { ...headers, 'content-length': String(declaredLength) } });
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; closed: boolean }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        const socket = res.socket;
        const settle = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, closed: socket.destroyed || socket.readableEnded });
        if (socket.destroyed || socket.readableEnded) settle();
        else socket.once('close', settle);
      });
    });
    req.on('error', (e) => {
      // Writing after the server closed the connection (what matters is the answer already read), or hanging up.
      if (!['EPIPE', 'ECONNRESET'].includes((e as NodeJS.ErrnoException).code ?? '') && !req.destroyed) reject(e);
    });
  });
  return {
    answer,
    send: (bytes) => {
      sent += Buffer.byteLength(bytes);
      req.write(bytes);
    },
    finish: (bytes) => {
      if (bytes !== undefined) sent += Buffer.byteLength(bytes);
      req.end(bytes);
    },
    abort: () => req.destroy(),
    bytesSent: () => sent,
  };
}

describe('statement upload limits', () => {
  let ctx: TestContext;
  let base: string;
  let partner: TestPartner;
  let other: TestPartner;

  beforeAll(async () => {
    ({ ctx, partner } = await openStatementContext('2026-12-01T12:00:00Z'));
    other = await partnerWithToken(ctx);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
  });

  const csvHeaders = (p: TestPartner) => ({ ...p.headers, accept: 'application/json', 'content-type': 'text/csv' });
  const db = () => ctx.runtime.database.kysely;

  it('refuses a Connect upload without a valid link before reading its body, and closes the connection', async () => {
    const upload = openUpload(base, `/connect/api/institutions/${FINBANK}/statements`, { 'connect-link': '?x=forged', 'content-type': 'text/csv' }, 10 * MB);
    upload.send(Buffer.alloc(64 * 1024, 0x41));
    // The answer comes while 10 MB less 64 KB are still unsent.
    const answer = await upload.answer;
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).code).toBe('14071');
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
    expect(upload.bytesSent()).toBe(64 * 1024);
  });

  it("refuses a partner's third upload at once with 429 and Retry-After while its two others run, and takes another partner's", async () => {
    const mine = await addCustomer(ctx, partner);
    const theirs = await addCustomer(ctx, other);
    const body = 'Date,Description,Amount\n03/02/2026,COFFEE,-4.50\n03/03/2026,BAKERY,-6.00\n';
    const running = [
      openUpload(base, statementUploadPath(mine), csvHeaders(partner), body.length),
      openUpload(base, statementUploadPath(mine), csvHeaders(partner), body.length),
    ];
    for (const r of running) r.send(body.slice(0, 10));
    // Both hold their slot once their headers were read.
    while (ctx.app.heavyWork.upload.inUse(partner.partnerId) < 2) await new Promise((resolve) => setImmediate(resolve));

    const third = openUpload(base, statementUploadPath(mine), csvHeaders(partner), 10 * MB);
    third.send(Buffer.alloc(1024, 0x41));
    const refused = await third.answer;
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).code).toBe('10432');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.closed).toBe(true);

    const elsewhere = await ctx.app.inject({ method: 'POST', url: statementUploadPath(theirs), headers: csvHeaders(other), payload: body });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);

    for (const r of running) r.finish(body.slice(10));
    const answers = await Promise.all(running.map((r) => r.answer));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(ctx.app.heavyWork.upload.inUse(partner.partnerId)).toBe(0);
    const after = await ctx.app.inject({ method: 'POST', url: statementUploadPath(mine), headers: csvHeaders(partner), payload: body });
    expect(after.json()).toMatchObject({ transactionsAdded: 0, transactionsAlreadyPresent: 2 });
  });

  it('gives a slot back when the client goes away mid-upload', async () => {
    const customerId = await addCustomer(ctx, partner);
    const gone = openUpload(base, statementUploadPath(customerId), csvHeaders(partner), 10 * MB);
    gone.send('Date,Description,Amount\n');
    while (ctx.app.heavyWork.upload.inUse(partner.partnerId) < 1) await new Promise((resolve) => setImmediate(resolve));
    gone.abort();
    // An incomplete body: the server gives up on it (the client hung up), and the slot is free again.
    while (ctx.app.heavyWork.upload.inUse(partner.partnerId) > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ctx.app.heavyWork.upload.inUse(partner.partnerId)).toBe(0);
  });

  it('stores files with NUL characters without them, the same on both databases', async () => {
    const customerId = await addCustomer(ctx, partner);
    const ofx = ofxStatementFile([{ acctId: '12\u000034', transactions: [{ fitId: 'N1', date: ofxDay(10), amount: -5, name: 'NUL\u0000NAME' }] }]);
    const viaOfx = await ctx.app.inject({
      method: 'POST',
      url: statementUploadPath(customerId),
      headers: { ...partner.headers, 'content-type': 'application/x-ofx' },
      payload: ofx,
    });
    expect(viaOfx.statusCode, viaOfx.body).toBe(200);

    const csv = 'Date,Description,Amount\n03/02/2026,CAF\u0000E,-4.50\n';
    const viaCsv = await ctx.app.inject({
      method: 'POST',
      url: statementUploadPath(customerId),
      headers: { ...partner.headers, 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(viaCsv.statusCode, viaCsv.body).toBe(200);

    // Sniffed as text from the first 4 KB; the NUL comes later.
    const late = `Date,Description,Amount\n${'03/03/2026,PADDING ROW,-1.00\n'.repeat(200)}03/04/2026,LATE\u0000NUL,-2.00\n`;
    const viaOctets = await ctx.app.inject({
      method: 'POST',
      url: statementUploadPath(customerId),
      headers: { ...partner.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.from(late),
    });
    expect(viaOctets.statusCode, viaOctets.body).toBe(200);

    const stored = await db().selectFrom('transactions').select(['description', 'ref']).where('customer_id', '=', Number(customerId)).execute();
    expect(stored.map((t) => t.description)).toEqual(expect.arrayContaining(['NULNAME', 'CAFE', 'LATENUL']));
    expect(stored.some((t) => t.description.includes('\u0000') || t.ref.includes('\u0000'))).toBe(false);
    const accounts = await db().selectFrom('accounts').select(['number', 'ref']).where('customer_id', '=', Number(customerId)).execute();
    expect(accounts.some((a) => a.number.includes('\u0000') || a.ref.includes('\u0000'))).toBe(false);
  });

  // Stores 200 accounts after refusing 201: more than the default timeout on a loaded machine.
  it('refuses a file of more than 200 accounts with 413 (14110)', { timeout: 120_000 }, async () => {
    const customerId = await addCustomer(ctx, partner);
    const accounts = (n: number) =>
      ofxStatementFile(
        Array.from({ length: n }, (_, i) => ({
          acctId: `77${String(i).padStart(6, '0')}`,
          transactions: [{ fitId: `A${i}`, date: ofxDay(3), amount: -1, name: 'ONE' }],
        })),
      );
    const over = await ctx.app.inject({
      method: 'POST',
      url: statementUploadPath(customerId),
      headers: { ...partner.headers, 'content-type': 'application/x-ofx' },
      payload: accounts(201),
    });
    expect([over.statusCode, over.json().code]).toEqual([413, '14110']);
    expect(over.json().message).toMatch(/201 accounts.*at most 200/);
    const at = await ctx.app.inject({
      method: 'POST',
      url: statementUploadPath(customerId),
      headers: { ...partner.headers, 'content-type': 'application/x-ofx' },
      payload: accounts(200),
    });
    expect(at.statusCode, at.body).toBe(200);
    expect(at.json().accounts).toHaveLength(200);
  });

  it('answers an upload in Connect of a valid link like the API (the link checked before the body)', async () => {
    const customerId = await addCustomer(ctx, partner);
    const link = await linkFor(ctx, partner, 'full', { customerId });
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/connect/api/institutions/${FINBANK}/statements`,
      headers: { 'connect-link': new URL(link).search, accept: 'application/json', 'content-type': 'text/csv' },
      payload: 'Date,Description,Amount\n03/02/2026,COFFEE,-4.50\n',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ transactionsAdded: 1 });
  });
});

describe.skipIf(testDialect() !== 'postgres')('the PostgreSQL statement limit', () => {
  it('ends a statement that runs past LEDGERLINK_PG_STATEMENT_TIMEOUT_MS, as a temporary unavailability, and still migrates', async () => {
    const scratch = await createTestDatabase('postgres');
    const url = new URL(TEST_DATABASE_URL);
    const limited = openDatabase({ databaseUrl: url.toString(), pgSchema: scratch.pgSchema!, poolSize: 2, statementTimeoutMs: 200 });
    try {
      // Migrations lift the limit for their own connection (building an index may take longer).
      await migrateToLatest(limited);
      const slow = await sql`select pg_sleep(2)`.execute(limited.kysely).catch((e: unknown) => e);
      expect((slow as { code?: string }).code).toBe('57014');
      expect(isUnavailable(slow)).toBe(true);
      const quick = await sql<{ n: number }>`select 1 as n`.execute(limited.kysely);
      expect(quick.rows[0]!.n).toBe(1);
      const shown = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(limited.kysely);
      expect(shown.rows[0]!.statement_timeout).toBe('200ms');
    } finally {
      await limited.close();
      await scratch.drop();
    }
  });
});
