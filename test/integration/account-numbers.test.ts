import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOfxInstitution } from '../../src/modules/institutions/service.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { DAY, nowOf, refresh, type AccountJson } from '../helpers/aggregation.js';
import { appOk, linkFor, pathOf } from '../helpers/connect.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { dashboardSignIn } from '../helpers/dashboard.js';
import { startListener, type Listener } from '../helpers/listener.js';
import { startOfxServer, type OfxServer, type OfxServerAccount } from '../helpers/ofx-server.js';
import { startPushListener, subscribe } from '../helpers/txpush.js';

/** Full numbers the sources give: an OFX server's checking account and card, an uploaded OFX file, a CSV export. */
const CHECKING = '000123456789';
const CARD = '4111111111111111';
const UPLOADED = '9876543210123';
const CSV_NUMBER = '5500111122223333';
const FULL = [CHECKING, CARD, UPLOADED, CSV_NUMBER];
const FINBANK = 101732;

const ofxDate = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10).replace(/-/g, '');

/** An OFX 1.02 bank statement file of one checking account. */
function ofxFile(acctId: string, balance: number, asOf: number): string {
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
<BANKTRANLIST><DTSTART>${ofxDate(asOf - 10 * DAY)}<DTEND>${ofxDate(asOf)}
<STMTTRN>
<TRNTYPE>DEBIT
<DTPOSTED>${ofxDate(asOf - 2 * DAY)}
<TRNAMT>-${(balance / 100).toFixed(2)}
<FITID>U${balance}
<NAME>GROCERY STORE
</STMTTRN>
</BANKTRANLIST>
<LEDGERBAL><BALAMT>${balance.toFixed(2)}<DTASOF>${ofxDate(asOf)}</LEDGERBAL>
</STMTRS></STMTTRNRS></BANKMSGSRSV1>
</OFX>
`;
}

/** A CSV export whose rows name the account by its full number. */
const csvFile = (balance: number) =>
  ['Date,Description,Amount,Balance,Account Number', `11/20/2026,COFFEE ROASTERS,-4.50,${balance.toFixed(2)},${CSV_NUMBER}`, ''].join('\n');

describe('account numbers outside the service', () => {
  let ctx: TestContext;
  /** Links at a real institution (an OFX server), which needs the production plan. */
  let production: TestPartner;
  /** Uploads statement files at the test bank, whose accounts may have TxPUSH listeners on plain http. */
  let testDrive: TestPartner;
  let ofx: OfxServer;
  let push: Awaited<ReturnType<typeof startPushListener>>;
  let hooks: Listener;
  let institutionId: number;
  /** Every text that left the service in the test, with where it went. */
  const seen: { where: string; text: string }[] = [];
  const record = (where: string, text: string) => {
    seen.push({ where, text });
    return text;
  };

  const ofxAccounts = (checkingBalance: number): OfxServerAccount[] => [
    { kind: 'bank', bankId: '121000358', acctId: CHECKING, acctType: 'CHECKING', balance: checkingBalance, transactions: [] },
    { kind: 'creditCard', acctId: CARD, balance: -250.5, transactions: [] },
  ];

  beforeAll(async () => {
    push = await startPushListener();
    hooks = await startListener();
    ctx = await createTestContext({ LEDGERLINK_PUSH_EXTRA_PORTS: String(push.port) });
    await ensureInstitutionCatalog(ctx.runtime.database);
    production = await partnerWithToken(ctx, 'production');
    testDrive = await partnerWithToken(ctx);
    ofx = await startOfxServer({ format: 'sgml', users: [{ userId: 'alice', password: 'secret-1', accounts: ofxAccounts(1520.75) }] });
    institutionId = await addOfxInstitution(
      ctx.runtime.database,
      'sandbox',
      { name: 'Harbor Test Credit Union', url: ofx.url, fid: '1234', org: 'HTCU' },
      nowOf(ctx),
    );
  }, 120_000);
  afterAll(async () => {
    await ofx?.close();
    await push?.close();
    await hooks?.close();
    await ctx?.close();
  });

  const api = async (partner: TestPartner, url: string, accept = 'application/json', method: 'GET' | 'POST' = 'GET', payload?: string, type?: string) => {
    const res = await ctx.app.inject({
      method,
      url,
      headers: { ...partner.headers, accept, ...(type ? { 'content-type': type } : {}) },
      ...(payload !== undefined ? { payload } : {}),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return record(`API ${method} ${url} (${accept})`, res.body);
  };
  const connect = async <T>(link: string, method: 'GET' | 'POST', path: string, payload?: object): Promise<T> => {
    const body = await appOk<T>(ctx, link, method, path, payload);
    record(`Connect ${method} ${path}`, JSON.stringify(body));
    return body;
  };
  const connectUpload = async (link: string, institution: number, file: string, type: string) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/connect/api/institutions/${institution}/statements`,
      headers: { 'connect-link': new URL(link).search, accept: 'application/json', 'content-type': type },
      payload: file,
    });
    expect(res.statusCode, res.body).toBe(200);
    return record('Connect statement upload', res.body);
  };
  /** What the partner's dashboard shows of the customer, its deliveries and its request log. */
  const dashboardOf = async (partner: TestPartner, customerId: string) => {
    const dashboard = await dashboardSignIn(ctx, partner.partnerId, partner.partnerSecret);
    record('dashboard page', (await dashboard.call('GET', '/dashboard')).body);
    for (const url of [`/dashboard/api/customers/${customerId}`, `/dashboard/api/customers/${customerId}/transactions`, '/dashboard/api/deliveries?limit=100'])
      record(`dashboard ${url}`, (await dashboard.call('GET', url)).body);
    await ctx.app.requestLog.flush();
    const list = await dashboard.call('GET', '/dashboard/api/requests?limit=100');
    const requests = list.json<{ requests: { id: number; path: string }[] }>().requests;
    expect(requests.length).toBeGreaterThan(5);
    for (const r of requests) {
      const detail = await dashboard.call('GET', `/dashboard/api/requests/${r.id}`);
      record(`dashboard request log ${r.path} (response)`, JSON.stringify(detail.json<{ response: unknown }>().response));
    }
  };
  const leaks = () => seen.flatMap(({ where, text }) => FULL.filter((n) => text.includes(n)).map((n) => `${n} in ${where}`));
  const storedNumbers = async (customerId: string) =>
    (await ctx.runtime.database.kysely.selectFrom('accounts').select('number').where('customer_id', '=', Number(customerId)).execute())
      .map((a) => a.number)
      .sort();

  it('shows accounts linked through Connect at an OFX institution with their numbers masked, everywhere', async () => {
    const customerId = await addCustomer(ctx, production, { type: 'active' });
    const base = `/aggregation/v1/customers/${customerId}`;

    // Connect: the institution's accounts to choose from, then the chosen ones linked.
    const link = await linkFor(ctx, production, 'full', { customerId, webhook: hooks.url });
    record('Connect page', (await ctx.app.inject({ url: pathOf(link) })).body);
    await connect(link, 'POST', '/session');
    await connect(link, 'POST', `/institutions/${institutionId}`);
    const step = await connect<{ step: string; sessionId: string; accounts: { ref: string; accountNumberDisplay: string }[] }>(link, 'POST', '/signin', {
      institutionId,
      credentials: [
        { id: `${institutionId}001`, value: 'alice' },
        { id: `${institutionId}002`, value: 'secret-1' },
      ],
    });
    expect(step.step).toBe('accounts');
    expect(step.accounts.map((a) => a.accountNumberDisplay).sort()).toEqual(['1111', '6789']);
    // What the app's checkboxes carry: a handle, not the institution's ref (an OFX ref holds the ACCTID).
    for (const a of step.accounts) expect(a.ref).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await connect(link, 'GET', `/signin/${step.sessionId}`);
    await connect(link, 'POST', `/signin/${step.sessionId}/accounts`, { accountRefs: step.accounts.map((a) => a.ref) });
    await connect(link, 'GET', '/logins');

    // The API's account records, JSON and XML, listed, single and simple, and what refreshes answer.
    const accounts = JSON.parse(await api(production, `${base}/accounts`)).accounts as AccountJson[];
    expect(accounts.map((a) => a.number).sort()).toEqual(['XXXXXXXX6789', 'XXXXXXXXXXXX1111']);
    await api(production, `${base}/accounts`, 'application/xml');
    const checking = accounts.find((a) => a.type === 'checking')!;
    await api(production, `${base}/accounts/${checking.id}`);
    await api(production, `${base}/accounts/${checking.id}`, 'application/xml');
    await api(production, `${base}/accounts/simple`);
    await api(production, `${base}/institutions/${institutionId}/accounts`, 'application/xml');
    await api(production, `${base}/institutionLogins/${checking.institutionLoginId}/accounts`);
    ofx.setAccounts('alice', ofxAccounts(1999.99));
    record('API refresh', JSON.stringify(await refresh(ctx, production, customerId)));
    ofx.setAccounts('alice', ofxAccounts(2001.5));
    await api(production, `${base}/institutionLogins/${checking.institutionLoginId}/accounts`, 'application/xml', 'POST', '');

    // Connect webhooks, as stored in the outbox and as received; the dashboard.
    await drainDeliveries(ctx.runtime);
    for (const d of await ctx.runtime.database.kysely.selectFrom('deliveries').select(['kind', 'body']).execute()) record(`outbox ${d.kind}`, d.body);
    expect(hooks.requests.length).toBeGreaterThan(3);
    for (const r of hooks.requests) record('Connect webhook', r.body);
    await dashboardOf(production, customerId);

    expect(seen.length).toBeGreaterThan(20);
    expect(leaks()).toEqual([]);
    // The service still holds each full number, for the products that will need it.
    expect(await storedNumbers(customerId)).toEqual([CARD, CHECKING].sort());
  });

  it('shows accounts of uploaded OFX and CSV statement files with their numbers masked, in answers and TxPUSH notifications', async () => {
    const customerId = await addCustomer(ctx, testDrive);
    const base = `/aggregation/v1/customers/${customerId}`;
    const upload = (file: string, type: string, accept = 'application/json') =>
      api(testDrive, `${base}/institutions/${FINBANK}/statements`, accept, 'POST', file, type);

    const first = JSON.parse(await upload(ofxFile(UPLOADED, 3058.17, nowOf(ctx)), 'application/x-ofx'));
    expect(first.accounts).toEqual([expect.objectContaining({ number: 'XXXXXXXXX0123', accountNumberDisplay: '0123' })]);
    await subscribe(ctx, testDrive, customerId, first.accounts[0].id, push.url);
    await upload(ofxFile(UPLOADED, 4100.5, nowOf(ctx)), 'application/x-ofx', 'application/xml');
    const csv = JSON.parse(await upload(csvFile(995.5), 'text/csv'));
    expect(csv.accounts).toEqual([expect.objectContaining({ number: 'XXXXXXXXXXXX3333', name: 'Imported account XXXXXXXXXXXX3333' })]);
    const link = await linkFor(ctx, testDrive, 'full', { customerId, webhook: hooks.url });
    await connectUpload(link, FINBANK, ofxFile(UPLOADED, 4200.25, nowOf(ctx)), 'application/x-ofx');
    await connectUpload(link, FINBANK, csvFile(1200), 'text/csv');
    await connect(link, 'GET', '/logins');
    await api(testDrive, `${base}/accounts`, 'application/xml');
    await api(testDrive, `${base}/accounts`);

    await drainDeliveries(ctx.runtime);
    for (const d of await ctx.runtime.database.kysely.selectFrom('deliveries').select(['kind', 'body']).execute()) record(`outbox ${d.kind}`, d.body);
    for (const r of push.notifications()) record('TxPUSH listener', r.body);
    const pushed = push.notifications().map((r) => JSON.parse(r.body) as { event: { class: string; records: { number?: string }[] } });
    const pushedNumbers = pushed.filter((p) => p.event.class === 'account').flatMap((p) => p.event.records.map((r) => r.number));
    expect(pushedNumbers.length).toBeGreaterThan(0);
    expect(new Set(pushedNumbers)).toEqual(new Set(['XXXXXXXXX0123']));
    await dashboardOf(testDrive, customerId);

    expect(leaks()).toEqual([]);
    expect(await storedNumbers(customerId)).toEqual([CSV_NUMBER, UPLOADED].sort());
  });
});
