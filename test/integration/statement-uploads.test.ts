import fs from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { isTestInstitution } from '../../src/connectors/testbank/institutions.js';
import { refresh, type AccountJson } from '../helpers/aggregation.js';
import { appCall, linkFor } from '../helpers/connect.js';
import { partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { startListener, type Listener } from '../helpers/listener.js';
import {
  FINBANK,
  openStatementContext,
  type StatementUploadOptions,
  uploadedTransactions,
  uploadStatement,
  uploadStatementOk,
} from '../helpers/statement-uploads.js';
import { startPushListener, subscribe } from '../helpers/txpush.js';

const FIXTURES = new URL('../fixtures/statements/', import.meta.url);

interface OfxTransaction {
  fitId: string;
  /** Epoch seconds. */
  date: number;
  amount: number;
  name: string;
}

const ofxDate = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10).replace(/-/g, '');

/** An OFX 1.02 bank statement file, as a bank's "Download for Quicken" gives it. */
function ofxFile(acctId: string, balance: number, asOf: number, transactions: OfxTransaction[]): string {
  const list = transactions
    .map(
      (t) =>
        `<STMTTRN>\n<TRNTYPE>${t.amount < 0 ? 'DEBIT' : 'CREDIT'}\n<DTPOSTED>${ofxDate(t.date)}\n<TRNAMT>${t.amount.toFixed(2)}\n<FITID>${t.fitId}\n<NAME>${t.name}\n</STMTTRN>`,
    )
    .join('\n');
  return `OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:USASCII
CHARSET:1252
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

<OFX>
<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>${ofxDate(asOf)}<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
<STMTRS><CURDEF>USD
<BANKACCTFROM><BANKID>121000248<ACCTID>${acctId}<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>${ofxDate(transactions[0]?.date ?? asOf)}<DTEND>${ofxDate(asOf)}
${list}
</BANKTRANLIST>
<LEDGERBAL><BALAMT>${balance.toFixed(2)}<DTASOF>${ofxDate(asOf)}</LEDGERBAL>
</STMTRS></STMTTRNRS></BANKMSGSRSV1>
</OFX>
`;
}

/** A CSV export of no bank this service knows: its columns cannot be told apart by name. */
const UNKNOWN_LAYOUT = [
  'When,Who,How Much,Left',
  '03/02/2026,COFFEE ROASTERS,-4.50,995.50',
  '03/03/2026,"PAYROLL, ACME CORP",2450.33,3445.83',
  '03/05/2026,CITY WATER,-61.20,3384.63',
  '03/07/2026,COFFEE ROASTERS,-4.50,3380.13',
  '03/07/2026,COFFEE ROASTERS,-4.50,3375.63',
  '03/09/2026,BOOKSHOP,-18.00,3357.63',
  '',
].join('\n');

describe('statement file uploads', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let push: Awaited<ReturnType<typeof startPushListener>>;
  let hooks: Listener;

  beforeAll(async () => {
    push = await startPushListener();
    hooks = await startListener();
    ({ ctx, partner } = await openStatementContext('2026-12-01T12:00:00Z', { LEDGERLINK_PUSH_EXTRA_PORTS: String(push.port) }));
  }, 120_000);
  afterAll(async () => {
    await push?.close();
    await hooks?.close();
    await ctx?.close();
  });

  const db = () => ctx.runtime.database.kysely;
  const upload = (who: TestPartner, customerId: string, file: string | Buffer, options?: StatementUploadOptions) =>
    uploadStatement(ctx, who, customerId, file, options);
  const uploadOk = (customerId: string, file: string | Buffer, options?: StatementUploadOptions) => uploadStatementOk(ctx, partner, customerId, file, options);
  const transactionsOf = (customerId: string) => uploadedTransactions(ctx, partner, customerId);
  const lastEventId = async () =>
    Number(
      (
        await db()
          .selectFrom('aggregation_events')
          .select((eb) => eb.fn.max('id').as('m'))
          .executeTakeFirst()
      )?.m ?? 0,
    );
  const eventsSince = async (customerId: string, afterId: number) =>
    (
      await db().selectFrom('aggregation_events').selectAll().where('customer_id', '=', Number(customerId)).where('id', '>', afterId).orderBy('id').execute()
    ).map((e) => ({ class: e.class, type: e.type, record: JSON.parse(e.record) as Record<string, unknown> }));

  const day = (iso: string) => Math.floor(Date.parse(`${iso}T12:00:00Z`) / 1000);
  const january = [
    { fitId: 'J01', date: day('2026-01-02'), amount: -42.17, name: 'KROGER 512' },
    { fitId: 'J02', date: day('2026-01-05'), amount: -1200, name: 'CHECK 1042' },
    { fitId: 'J03', date: day('2026-01-12'), amount: 2450.33, name: 'ACME CORP PAYROLL' },
    { fitId: 'J04', date: day('2026-01-15'), amount: -60, name: 'ATM WITHDRAWAL' },
    { fitId: 'J05', date: day('2026-01-20'), amount: -89.99, name: 'PHONE BILL' },
  ];
  const later = [
    { fitId: 'J06', date: day('2026-01-26'), amount: -15.5, name: 'LUNCH PLACE' },
    { fitId: 'F01', date: day('2026-02-02'), amount: 2450.33, name: 'ACME CORP PAYROLL' },
  ];

  it('creates a statement-file login with the OFX file’s account and transactions', async () => {
    const customerId = await addCustomer(ctx, partner);
    const body = await uploadOk(customerId, ofxFile('1234567890', 3058.17, day('2026-01-31'), january), { type: 'application/x-ofx' });
    expect(body).toMatchObject({
      loginCreated: true,
      format: 'ofx',
      institutionId: String(FINBANK),
      transactionsAdded: 5,
      transactionsAlreadyPresent: 0,
      problems: [],
    });
    expect(body.accounts).toHaveLength(1);
    expect(body.accounts[0]).toMatchObject({
      type: 'checking',
      number: 'XXXXXX7890',
      accountNumberDisplay: '7890',
      balance: 3058.17,
      currency: 'USD',
      institutionLoginId: body.institutionLoginId,
      aggregationStatusCode: 0,
      detail: { availableBalanceAmount: 3058.17 },
    });
    const login = await db().selectFrom('institution_logins').selectAll().where('id', '=', body.institutionLoginId).executeTakeFirstOrThrow();
    expect(login).toMatchObject({ source: 'statement-file', credentials_encrypted: null, institution_id: FINBANK });

    const listed = await ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}/accounts`, headers: partner.headers });
    expect(listed.json().accounts.map((a: AccountJson) => a.id)).toEqual([body.accounts[0].id]);
    const stored = await transactionsOf(customerId);
    expect(stored.map((t) => [t.amount, t.description, t.status])).toEqual(january.map((t) => [t.amount, t.name, 'active']));
    expect(stored.every((t) => t.accountId === Number(body.accounts[0].id))).toBe(true);
  });

  it('merges an overlapping OFX upload: only new transactions are stored and raise events and TxPUSH notifications', async () => {
    const customerId = await addCustomer(ctx, partner);
    const first = await uploadOk(customerId, ofxFile('555000111', 3058.17, day('2026-01-31'), january), { type: 'application/vnd.intu.qfx' });
    const accountId = first.accounts[0].id as string;
    await subscribe(ctx, partner, customerId, accountId, push.url);
    await drainDeliveries(ctx.runtime);
    const pushedBefore = push.notifications().length;
    const eventsBefore = await lastEventId();

    // February's file repeats the last three January transactions (same FITIDs) and adds two.
    const second = await uploadOk(customerId, ofxFile('555000111', 5493, day('2026-02-03'), [...january.slice(2), ...later]), { type: 'application/x-ofx' });
    expect(second).toMatchObject({ loginCreated: false, institutionLoginId: first.institutionLoginId, transactionsAdded: 2, transactionsAlreadyPresent: 3 });
    expect(second.accounts.map((a: AccountJson) => [a.id, a.balance])).toEqual([[accountId, 5493]]);
    const stored = await transactionsOf(customerId);
    expect(stored.map((t) => t.description)).toEqual([...january, ...later].map((t) => t.name));

    const events = await eventsSince(customerId, eventsBefore);
    const created = events.filter((e) => e.class === 'transaction');
    expect(created.map((e) => [e.type, e.record.description])).toEqual(later.map((t) => ['created', t.name]));
    expect(events.filter((e) => e.class === 'account').map((e) => e.type)).toEqual(['modified']);
    await drainDeliveries(ctx.runtime);
    const pushed = push
      .notifications()
      .slice(pushedBefore)
      .map((r) => JSON.parse(r.body).event as { class: string; type: string; records: Array<{ description: string }> });
    expect(pushed.filter((e) => e.class === 'transaction').flatMap((e) => e.records.map((r) => [e.type, r.description]))).toEqual(
      later.map((t) => ['created', t.name]),
    );

    // The same file again adds nothing and raises nothing.
    const eventsMid = await lastEventId();
    const again = await uploadOk(customerId, ofxFile('555000111', 5493, day('2026-02-03'), [...january.slice(2), ...later]), { type: 'application/x-ofx' });
    expect(again).toMatchObject({ transactionsAdded: 0, transactionsAlreadyPresent: 5 });
    expect(await eventsSince(customerId, eventsMid)).toEqual([]);
    // An older file uploaded last leaves the newer balance in place.
    const older = await uploadOk(customerId, ofxFile('555000111', 3058.17, day('2026-01-31'), january), { type: 'application/x-ofx' });
    expect(older.accounts[0].balance).toBe(5493);
    expect(await transactionsOf(customerId)).toHaveLength(7);
  });

  it('leaves statement-file logins as they are on refresh', async () => {
    const customerId = await addCustomer(ctx, partner);
    const body = await uploadOk(customerId, ofxFile('777', 10, day('2026-01-31'), january), { type: 'application/x-ofx' });
    const accounts = await refresh(ctx, partner, customerId);
    expect(accounts.map((a) => [a.id, a.aggregationStatusCode, a.balance])).toEqual([[body.accounts[0].id, 0, 10]]);
    expect(await transactionsOf(customerId)).toHaveLength(5);
    const historic = await ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/accounts/${body.accounts[0].id}/transactions/historic`,
      headers: partner.headers,
    });
    expect(historic.statusCode, historic.body).toBe(204);
  });

  it('reads a CSV export of a known layout, sniffed from octet-stream, and dedupes identical rows by occurrence', async () => {
    const customerId = await addCustomer(ctx, partner);
    const file = fs.readFileSync(new URL('chase-checking.csv', FIXTURES));
    const rows = file.toString('utf8').trim().split('\n').length - 1;
    const first = await uploadOk(customerId, file, { type: 'application/octet-stream' });
    expect(first).toMatchObject({ format: 'csv', transactionsAdded: rows, transactionsAlreadyPresent: 0 });
    expect(first.accounts).toEqual([expect.objectContaining({ type: 'checking', name: 'Chase checking' })]);
    const stored = await transactionsOf(customerId);
    // The file holds the same coffee twice on one day: both are kept.
    expect(stored.filter((t) => /STARBUCKS STORE 03412/.test(String(t.description)))).toHaveLength(2);

    const again = await uploadOk(customerId, file, { type: 'text/csv' });
    expect(again).toMatchObject({ loginCreated: false, transactionsAdded: 0, transactionsAlreadyPresent: rows });
    expect(await transactionsOf(customerId)).toHaveLength(rows);

    // Without a Content-Type the file is sniffed too.
    const untyped = await upload(partner, customerId, file);
    expect([untyped.statusCode, untyped.json().transactionsAlreadyPresent]).toEqual([200, rows]);

    // The answer in XML, by Accept, as every API answer.
    const xml = await upload(partner, customerId, file, { type: 'text/csv', accept: 'application/xml' });
    expect(xml.statusCode).toBe(200);
    const parsed = new XMLParser({ parseTagValue: false, isArray: (name) => ['account', 'problem'].includes(name) }).parse(xml.body);
    expect(parsed.statementUpload).toMatchObject({ format: 'csv', transactionsAdded: '0', transactionsAlreadyPresent: String(rows), loginCreated: 'false' });
    expect(parsed.statementUpload.accounts.account.map((a: { id: string }) => a.id)).toEqual([first.accounts[0].id]);
  });

  it("takes files larger than the server's general body limit, up to the statement limit", async () => {
    const customerId = await addCustomer(ctx, partner);
    const memo = 'x'.repeat(60_000);
    const lines = Array.from({ length: 40 }, (_, i) => `03/${String((i % 28) + 1).padStart(2, '0')}/2026,SHOP ${i},-${i + 1}.00,${memo}`);
    const file = `Date,Description,Amount,Memo\n${lines.join('\n')}\n`;
    expect(Buffer.byteLength(file)).toBeGreaterThan(2 * ctx.runtime.config.bodyLimit);
    const body = await uploadOk(customerId, file, { type: 'text/csv' });
    expect(body).toMatchObject({ transactionsAdded: 40 });
  });

  it('answers 422 with the headers and sample rows for an unknown layout, then imports with a mapping', async () => {
    const customerId = await addCustomer(ctx, partner);
    const unknown = await upload(partner, customerId, UNKNOWN_LAYOUT, { type: 'text/csv' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toEqual({
      code: '14112',
      message: expect.stringMatching(/mapping/),
      details: {
        headers: ['When', 'Who', 'How Much', 'Left'],
        headerRow: 0,
        sample: [
          ['03/02/2026', 'COFFEE ROASTERS', '-4.50', '995.50'],
          ['03/03/2026', 'PAYROLL, ACME CORP', '2450.33', '3445.83'],
          ['03/05/2026', 'CITY WATER', '-61.20', '3384.63'],
          ['03/07/2026', 'COFFEE ROASTERS', '-4.50', '3380.13'],
          ['03/07/2026', 'COFFEE ROASTERS', '-4.50', '3375.63'],
        ],
      },
    });
    expect(await db().selectFrom('institution_logins').select('id').where('customer_id', '=', Number(customerId)).execute()).toEqual([]);

    // The same in XML: the details travel as elements.
    const xml = await upload(partner, customerId, UNKNOWN_LAYOUT, { type: 'text/csv', accept: 'application/xml' });
    expect(xml.statusCode).toBe(422);
    const parsed = new XMLParser({ parseTagValue: false, isArray: (name) => ['header', 'row', 'cell'].includes(name) }).parse(xml.body);
    expect(parsed.error.code).toBe('14112');
    expect(parsed.error.details.headers.header).toEqual(['When', 'Who', 'How Much', 'Left']);
    expect(parsed.error.details.sample.row[1].cell).toEqual(['03/03/2026', 'PAYROLL, ACME CORP', '2450.33', '3445.83']);

    const wrong = await upload(partner, customerId, UNKNOWN_LAYOUT, {
      type: 'text/csv',
      query: { mapping: JSON.stringify({ date: 'When', description: 'Who', amount: 'Amt' }) },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: '14113',
      details: { errors: [expect.stringMatching(/^amount: no column is named "Amt"/)], headers: ['When', 'Who', 'How Much', 'Left'] },
    });
    const notJson = await upload(partner, customerId, UNKNOWN_LAYOUT, { type: 'text/csv', query: { mapping: '{date:When}' } });
    expect([notJson.statusCode, notJson.json().code]).toEqual([400, '10010']);

    const mapping = JSON.stringify({ date: 'When', description: 'Who', amount: 'How Much', balance: 'Left', dateOrder: 'mdy', headerRow: 0 });
    const ok = await uploadOk(customerId, UNKNOWN_LAYOUT, { type: 'text/csv', query: { mapping, accountName: 'Household', accountType: 'savings' } });
    expect(ok).toMatchObject({ format: 'csv', transactionsAdded: 6, transactionsAlreadyPresent: 0, problems: [] });
    expect(ok.accounts).toEqual([expect.objectContaining({ name: 'Household', type: 'savings', balance: 3357.63 })]);
    const stored = await transactionsOf(customerId);
    expect(stored.map((t) => t.amount)).toEqual([-4.5, 2450.33, -61.2, -4.5, -4.5, -18]);
    // Re-uploading with the mapping: the two identical coffees of March 7 are the same two, not two more.
    const again = await uploadOk(customerId, UNKNOWN_LAYOUT, { type: 'text/csv', query: { mapping, accountName: 'Household', accountType: 'savings' } });
    expect(again).toMatchObject({ transactionsAdded: 0, transactionsAlreadyPresent: 6 });
  });

  it('refuses malformed and oversized files with documented codes, never a 500', async () => {
    const customerId = await addCustomer(ctx, partner);
    const tooMany = `Date,Description,Amount\n${'01/02/2026,X,1.00\n'.repeat(100_001)}`;
    const cases: [string, string | Buffer, string | undefined, Record<string, string> | undefined, number, string][] = [
      ['a PDF', Buffer.from('%PDF-1.7\n%\xe2\xe3\n1 0 obj\n'), 'application/octet-stream', undefined, 415, '14114'],
      ['an Excel workbook', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]), 'application/octet-stream', undefined, 415, '14114'],
      ['a web page', '<!DOCTYPE html>\n<html><body>Statement</body></html>', 'application/octet-stream', undefined, 415, '14114'],
      ['an XML document of another kind', '<?xml version="1.0"?>\n<invoice><total>3</total></invoice>', 'text/plain', undefined, 415, '14114'],
      ['JSON sent as a file', '[{"date":"2026-01-02","amount":-4.5}]', 'application/octet-stream', undefined, 415, '14114'],
      ['a web page sent as CSV', '<html><body><table><tr><td>1</td></tr></table></body></html>', 'text/csv', undefined, 415, '14114'],
      ['an OFX file that is not OFX', 'hello, this is not OFX', 'application/x-ofx', undefined, 400, '14111'],
      [
        'an OFX file with a refused sign-on',
        fs.readFileSync(new URL('../fixtures/ofx/signon-error-15500.ofx', import.meta.url)),
        'application/x-ofx',
        undefined,
        400,
        '14111',
      ],
      ['a CSV with an unclosed quote', 'Date,Description,Amount\n01/02/2026,"COFFEE,-4.50\n', 'text/csv', undefined, 400, '14111'],
      ['a CSV whose rows cannot be read', 'Date,Description,Amount\nyesterday,COFFEE,a lot\n', 'text/csv', undefined, 400, '14111'],
      ['a CSV with only its header', 'Date,Description,Amount\n', 'text/csv', undefined, 400, '14111'],
      ['white space', '  \n\n', 'text/csv', undefined, 400, '14111'],
      ['no body', '', 'text/csv', undefined, 400, '10005'],
      ['a CSV of more than 100,000 rows', tooMany, 'text/csv', undefined, 413, '14110'],
      ['more than 10 MB', Buffer.alloc(10 * 1024 * 1024 + 1, 0x41), 'text/csv', undefined, 413, '14110'],
      ['a JSON body', '{"file":"x"}', 'application/json', undefined, 415, '10041'],
      ['an image', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png', undefined, 415, '10041'],
      ['a bad currency', 'Date,Description,Amount\n01/02/2026,X,1\n', 'text/csv', { currency: 'DOLLARS' }, 400, '10010'],
      ['a bad account type', 'Date,Description,Amount\n01/02/2026,X,1\n', 'text/csv', { accountType: 'piggybank' }, 400, '10010'],
      ['a bad format', 'Date,Description,Amount\n01/02/2026,X,1\n', 'text/csv', { format: 'pdf' }, 400, '10010'],
    ];
    for (const [what, file, type, query, status, code] of cases) {
      const res = await upload(partner, customerId, file, { ...(type ? { type } : {}), ...(query ? { query } : {}) });
      expect([res.statusCode, res.json().code], `${what}: ${res.body.slice(0, 300)}`).toEqual([status, code]);
    }
    expect(await db().selectFrom('institution_logins').select('id').where('customer_id', '=', Number(customerId)).execute()).toEqual([]);
  });

  it('is partner-scoped, needs a catalogue institution, and keeps testing customers to test institutions', async () => {
    const customerId = await addCustomer(ctx, partner);
    const other = await partnerWithToken(ctx);
    const file = ofxFile('1', 1, day('2026-01-31'), january);
    const foreign = await upload(other, customerId, file, { type: 'application/x-ofx' });
    expect([foreign.statusCode, foreign.json().code]).toEqual([404, '14001']);
    const unknown = await upload(partner, customerId, file, { type: 'application/x-ofx', institutionId: 999_999_999 });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, '14006']);
    const real = await db().selectFrom('institutions').select('id').orderBy('id').execute();
    const realId = real.map((r) => r.id).find((id) => !isTestInstitution(id))!;
    const notTest = await upload(partner, customerId, file, { type: 'application/x-ofx', institutionId: realId });
    expect([notTest.statusCode, notTest.json().code]).toEqual([403, '14061']);
    expect(await db().selectFrom('institution_logins').select('id').where('customer_id', '=', Number(customerId)).execute()).toEqual([]);

    // An active customer of a production partner uploads at any institution, with a connector or without one.
    const production = await partnerWithToken(ctx, 'production');
    const active = await addCustomer(ctx, production, { type: 'active' });
    const ok = await upload(production, active, file, { type: 'application/x-ofx', institutionId: realId });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ loginCreated: true, institutionId: String(realId), transactionsAdded: 5 });
  });

  it('stores the same upload sent twenty times at once only once, refusing what is over the partner’s limit with 429', async () => {
    const customerId = await addCustomer(ctx, partner);
    const file = ofxFile('42424242', 100, day('2026-02-03'), [...january, ...later]);
    const send = () => upload(partner, customerId, file, { type: 'application/x-ofx' });
    const first = await Promise.all(Array.from({ length: 20 }, send));
    const refused = first.filter((r) => r.statusCode === 429);
    // Two at a time (LEDGERLINK_PARTNER_CONCURRENT_UPLOADS); the rest are refused before their body is read.
    expect(first.length - refused.length).toBeGreaterThanOrEqual(2);
    expect(first.every((r) => r.statusCode === 200 || r.statusCode === 429)).toBe(true);
    for (const r of refused) {
      expect(r.json().code).toBe('10432');
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(r.headers.connection).toBe('close');
    }
    // Sent again once the others are done, as a client honouring Retry-After would.
    const again = [];
    for (const _ of refused) again.push(await send());
    const results = [...first.filter((r) => r.statusCode !== 429), ...again];
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const bodies = results.map((r) => r.json());
    expect(bodies.filter((b) => b.loginCreated)).toHaveLength(1);
    expect(new Set(bodies.map((b) => b.institutionLoginId)).size).toBe(1);
    expect(bodies.reduce((sum, b) => sum + b.transactionsAdded, 0)).toBe(7);
    expect(bodies.every((b) => b.transactionsAdded + b.transactionsAlreadyPresent === 7)).toBe(true);
    expect(await db().selectFrom('institution_logins').select('id').where('customer_id', '=', Number(customerId)).execute()).toHaveLength(1);
    expect(await db().selectFrom('accounts').select('id').where('customer_id', '=', Number(customerId)).execute()).toHaveLength(1);
    expect(await transactionsOf(customerId)).toHaveLength(7);
    const created = (await eventsSince(customerId, 0)).filter((e) => e.class === 'transaction' && e.type === 'created');
    expect(created).toHaveLength(7);
  });

  describe('in the Connect app', () => {
    const connectUpload = (link: string, institutionId: number, file: string, query?: Record<string, string>) =>
      ctx.app.inject({
        method: 'POST',
        url: `/connect/api/institutions/${institutionId}/statements${query ? `?${new URLSearchParams(query)}` : ''}`,
        headers: { 'connect-link': new URL(link).search, accept: 'application/json', 'content-type': 'text/csv' },
        payload: file,
      });
    const webhooks = async (customerId: string) => {
      await drainDeliveries(ctx.runtime);
      return hooks.requests.map((r) => JSON.parse(r.body)).filter((b) => b.customerId === customerId);
    };

    it('offers uploads, asks for the mapping of an unknown layout, imports with it and reports `added`', async () => {
      // A partner none of whose uploads saved a mapping for this layout yet.
      const newcomer = await partnerWithToken(ctx);
      const customerId = await addCustomer(ctx, newcomer);
      const link = await linkFor(ctx, newcomer, 'full', { customerId, webhook: hooks.url });
      const search = await appCall(ctx, link, 'GET', '/institutions?search=finbank&limit=5');
      expect(search.json().institutions.find((i: { id: number }) => i.id === FINBANK)).toMatchObject({ available: true, statementUpload: true });
      expect((await appCall(ctx, link, 'POST', `/institutions/${FINBANK}`)).json()).toMatchObject({ live: true });

      const unknown = await connectUpload(link, FINBANK, UNKNOWN_LAYOUT);
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().details).toMatchObject({ headers: ['When', 'Who', 'How Much', 'Left'], headerRow: 0 });
      const mapping = JSON.stringify({ date: 'When', description: 'Who', amount: 'How Much', headerRow: 0 });
      const ok = await connectUpload(link, FINBANK, UNKNOWN_LAYOUT, { mapping });
      expect(ok.statusCode, ok.body).toBe(200);
      const body = ok.json();
      expect(body).toMatchObject({
        institution: { id: FINBANK, name: 'FinBank' },
        accounts: [expect.objectContaining({ name: 'Imported account', type: 'checking' })],
        transactionsAdded: 6,
        transactionsAlreadyPresent: 0,
        mapping: { source: 'given' },
      });
      const events = await webhooks(customerId);
      expect(events.map((e) => e.eventType)).toEqual(['institutionSelected', 'added']);
      expect(events[1].payload).toEqual({ institutionId: String(FINBANK), institutionLoginId: body.institutionLoginId, accounts: [body.accounts[0].id] });
      const logins = (await appCall(ctx, link, 'GET', '/logins')).json().logins;
      expect(logins).toEqual([expect.objectContaining({ institutionLoginId: body.institutionLoginId, aggregationStatusCode: 0 })]);
    });

    it('keeps a Lite link to its institution, and a Fix link of a statement-file login to uploads', async () => {
      const customerId = await addCustomer(ctx, partner);
      const file = 'Date,Description,Amount\n03/02/2026,COFFEE,-4.50\n';
      const lite = await linkFor(ctx, partner, 'lite', { customerId, institutionId: 102105 });
      const elsewhere = await connectUpload(lite, FINBANK, file);
      expect([elsewhere.statusCode, elsewhere.json().code]).toEqual([403, '14074']);
      const here = await connectUpload(lite, 102105, file);
      expect(here.statusCode, here.body).toBe(200);

      const fix = await linkFor(ctx, partner, 'fix', { customerId, institutionLoginId: here.json().institutionLoginId });
      expect((await appCall(ctx, fix, 'POST', '/institutions/102105')).json()).toMatchObject({ live: false, loginForm: [] });
      const signIn = await appCall(ctx, fix, 'POST', '/signin', { institutionId: 102105, credentials: [{ id: '102105001', value: 'profile_03' }] });
      expect([signIn.statusCode, signIn.json().code]).toEqual([400, '14020']);
      const newer = await connectUpload(fix, 102105, `${file}03/04/2026,BAKERY,-6.00\n`);
      expect(newer.json()).toMatchObject({ institutionLoginId: here.json().institutionLoginId, transactionsAdded: 1, transactionsAlreadyPresent: 1 });
    });
  });
});
