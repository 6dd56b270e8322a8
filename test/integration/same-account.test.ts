import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { refreshLeaseUntil } from '../../src/modules/aggregation/logins.repository.js';
import { placeStatementAccounts } from '../../src/modules/aggregation/statement-placement.service.js';
import { SIMPLEFIN_INSTITUTION_ID } from '../../src/connectors/simplefin/index.js';
import { addOfxInstitution } from '../../src/modules/institutions/service.js';
import { DAY, loginForm, nowOf, refresh, type AccountJson, type TransactionJson } from '../helpers/aggregation.js';
import { partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { waitFor } from '../helpers/listener.js';
import { type OfxServer, type OfxServerTransaction, startOfxServer } from '../helpers/ofx-server.js';
import { type SimplefinBridge, startSimplefinBridge } from '../helpers/simplefin-bridge.js';
import { FINBANK, openStatementContext, uploadedTransactions, uploadStatement } from '../helpers/statement-uploads.js';

// Placing a file's accounts, watched: a test makes the customer's accounts change right after it, as they may while
// the upload waits for the logins' leases.
// Each look at a login's lease counted, so a test can tell when an upload waits for one.
vi.mock('../../src/modules/aggregation/logins.repository.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/modules/aggregation/logins.repository.js')>();
  return { ...original, refreshLeaseUntil: vi.fn(original.refreshLeaseUntil) };
});
vi.mock('../../src/modules/aggregation/statement-placement.service.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/modules/aggregation/statement-placement.service.js')>();
  return { ...original, placeStatementAccounts: vi.fn(original.placeStatementAccounts) };
});

const ACCT = '000123452632';
const BANK = '121000358';

const ofxDate = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10).replace(/-/g, '');

/** A QFX download of one checking account: the same FITIDs, dates, amounts and names the live server sends. */
function qfxFile(acctId: string, transactions: readonly OfxServerTransaction[], asOf: number, balance = 1520.33): string {
  const list = transactions
    .map((t) => `<STMTTRN><TRNTYPE>${t.type}<DTPOSTED>${ofxDate(t.posted)}<TRNAMT>${t.amount.toFixed(2)}<FITID>${t.fitId}<NAME>${t.name}</STMTTRN>`)
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
<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>${ofxDate(asOf)}<LANGUAGE>ENG<INTU.BID>3000</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
<BANKACCTFROM><BANKID>${BANK}<ACCTID>${acctId}<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>${ofxDate(asOf - 60 * DAY)}<DTEND>${ofxDate(asOf)}
${list}
</BANKTRANLIST><LEDGERBAL><BALAMT>${balance.toFixed(2)}<DTASOF>${ofxDate(asOf)}</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1>
</OFX>
`;
}

/** Ten posted transactions of the last weeks, as an OFX server and its QFX downloads show them. */
function tenTransactions(now: number, prefix = 'F'): OfxServerTransaction[] {
  const names = [
    'KROGER 512',
    'SHELL OIL 5742',
    'NETFLIX.COM',
    'ACME CORP PAYROLL',
    'STARBUCKS STORE 1203',
    'CITY WATER',
    'AMAZON MKTPLACE',
    'TARGET 0421',
    'CHEVRON 0091',
    'WHOLE FOODS MKT',
  ];
  return names.map((name, i) => ({
    fitId: `${prefix}${2026000 + i}`,
    type: name.includes('PAYROLL') ? 'CREDIT' : 'DEBIT',
    posted: now - (3 + i * 2) * DAY,
    amount: name.includes('PAYROLL') ? 2450.33 : -(12.5 + i * 7.25),
    name,
  }));
}

describe('the same account once, however it arrives', () => {
  let ctx: TestContext;
  let production: TestPartner;
  let other: TestPartner;
  let ofx: OfxServer;
  let bridge: SimplefinBridge;
  let bank: number;

  beforeAll(async () => {
    ({ ctx, partner: other } = await openStatementContext('2026-12-01T12:00:00Z'));
    production = await partnerWithToken(ctx, 'production');
    ofx = await startOfxServer({ format: 'sgml', users: ['first', 'second'].map((userId) => ({ userId, password: 'pw-1', accounts: [] })) });
    bank = await addOfxInstitution(ctx.runtime.database, 'sandbox', { name: 'Harbor Test Credit Union', url: ofx.url, fid: '1234', org: 'HTCU' }, nowOf(ctx));
    bridge = await startSimplefinBridge({ now: () => nowOf(ctx) });
  }, 120_000);
  afterAll(async () => {
    await ofx?.close();
    await bridge?.close();
    await ctx?.close();
  });

  const api = async (who: TestPartner, method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await ctx.app.inject({ method, url, headers: { ...who.headers, accept: 'application/json' }, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const accountsOf = async (who: TestPartner, customerId: string): Promise<AccountJson[]> =>
    (await api(who, 'GET', `/aggregation/v1/customers/${customerId}/accounts`)).accounts;
  const loginsOf = async (customerId: string) =>
    ctx.runtime.database.kysely.selectFrom('institution_logins').select(['id', 'source']).where('customer_id', '=', Number(customerId)).orderBy('id').execute();
  const createdEvents = async (customerId: string) =>
    Number(
      (
        await ctx.runtime.database.kysely
          .selectFrom('aggregation_events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('customer_id', '=', Number(customerId))
          .where('class', '=', 'transaction')
          .where('type', '=', 'created')
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** The OFX bank's checking account of `userId` linked live for the customer. */
  const linkLive = async (customerId: string, userId: string, transactions: OfxServerTransaction[]) => {
    ofx.setAccounts(userId, [
      { kind: 'bank', bankId: BANK, acctId: ACCT, acctType: 'CHECKING', balance: 1520.33, description: 'Everyday Checking', transactions },
    ]);
    return (await api(production, 'POST', `/aggregation/v1/customers/${customerId}/institutions/${bank}/accounts/addall`, loginForm(bank, userId, 'pw-1')))
      .accounts as AccountJson[];
  };
  const upload = (who: TestPartner, customerId: string, file: string, institutionId: number, query?: Record<string, string>) =>
    uploadStatement(ctx, who, customerId, file, { type: 'application/vnd.intu.qfx', institutionId, ...(query ? { query } : {}) });
  const transactionsOf = (who: TestPartner, customerId: string): Promise<TransactionJson[]> => uploadedTransactions(ctx, who, customerId);

  it('live then file: a QFX download of an account linked live goes into it, its 10 transactions recognised and not stored again', async () => {
    const customerId = await addCustomer(ctx, production, { type: 'active' });
    const ten = tenTransactions(nowOf(ctx));
    const [live] = await linkLive(customerId, 'first', ten);
    await refresh(ctx, production, customerId);
    expect(await createdEvents(customerId)).toBe(10);

    const res = await upload(production, customerId, qfxFile(ACCT, ten, nowOf(ctx)), bank);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ transactionsAdded: 0, transactionsAlreadyPresent: 0, transactionsMatched: 10, loginCreated: false });
    expect(body.accounts.map((a: AccountJson) => a.id)).toEqual([live!.id]);
    expect(body.accountMatches).toEqual([{ ref: expect.any(String), accountId: live!.id, matchedBy: 'accountNumber' }]);
    expect(body.institutionLoginId).toBe(live!.institutionLoginId);

    expect((await accountsOf(production, customerId)).map((a) => a.id)).toEqual([live!.id]);
    expect((await loginsOf(customerId)).map((l) => l.source)).toEqual(['connector']);
    const stored = await transactionsOf(production, customerId);
    expect(stored).toHaveLength(10);
    expect(new Set(stored.map((t) => t.source))).toEqual(new Set(['ofx']));
    // No TxPUSH `created` for a duplicate.
    expect(await createdEvents(customerId)).toBe(10);

    // The same file again, and a newer one with two more: still one account, only the two stored.
    const again = await upload(production, customerId, qfxFile(ACCT, ten, nowOf(ctx)), bank);
    expect(again.json()).toMatchObject({ transactionsAdded: 0, transactionsMatched: 10 });
    const later = [...ten, { fitId: 'F2026100', type: 'DEBIT', posted: nowOf(ctx) - DAY, amount: -8.4, name: 'CORNER DELI' }];
    const more = await upload(production, customerId, qfxFile(ACCT, later, nowOf(ctx)), bank);
    expect(more.json()).toMatchObject({ transactionsAdded: 1, transactionsMatched: 10 });
    const after = await transactionsOf(production, customerId);
    expect(after).toHaveLength(11);
    expect(after.find((t) => t.description === 'CORNER DELI')?.source).toBe('statement');
  });

  it('file then live: the live account takes over the account made from the file, whose transactions the refresh recognises', async () => {
    const customerId = await addCustomer(ctx, production, { type: 'active' });
    const ten = tenTransactions(nowOf(ctx), 'G');
    const first = await upload(production, customerId, qfxFile(ACCT, ten, nowOf(ctx)), bank);
    expect(first.statusCode, first.body).toBe(200);
    const fileAccount = first.json().accounts[0] as AccountJson;
    expect(await createdEvents(customerId)).toBe(10);

    const linked = await linkLive(customerId, 'second', ten);
    expect(linked.map((a) => a.id)).toEqual([fileAccount.id]);
    // The file's login had no other account: it is gone, the live one holds the account.
    expect((await loginsOf(customerId)).map((l) => l.source)).toEqual(['connector']);
    await refresh(ctx, production, customerId);
    const stored = await transactionsOf(production, customerId);
    expect(stored).toHaveLength(10);
    expect(new Set(stored.map((t) => t.source))).toEqual(new Set(['statement']));
    expect(await createdEvents(customerId)).toBe(10);
    expect((await accountsOf(production, customerId)).map((a) => [a.id, a.aggregationStatusCode])).toEqual([[fileAccount.id, 0]]);
  });

  it('two files of overlapping periods: one account, the overlap stored once, and a CSV of the same account asks before it is merged', async () => {
    const customerId = await addCustomer(ctx, production, { type: 'active' });
    const now = nowOf(ctx);
    const ten = tenTransactions(now, 'H');
    const older = ten.slice(4);
    const newer = ten.slice(0, 7);
    expect((await upload(production, customerId, qfxFile(ACCT, older, now - 5 * DAY), bank)).json()).toMatchObject({ transactionsAdded: 6 });
    const second = (await upload(production, customerId, qfxFile(ACCT, newer, now), bank)).json();
    expect(second).toMatchObject({ transactionsAdded: 4, transactionsAlreadyPresent: 3, transactionsMatched: 0 });
    expect(await accountsOf(production, customerId)).toHaveLength(1);

    // The same account as a CSV export with no account number: the amounts and dates overlap, so it asks.
    const csv = ['Date,Description,Amount', ...ten.map((t) => `${new Date(t.posted * 1000).toISOString().slice(0, 10)},${t.name},${t.amount.toFixed(2)}`)].join(
      '\n',
    );
    const asked = await uploadStatement(ctx, production, customerId, csv, { type: 'text/csv', institutionId: bank, query: { accountName: 'Everyday' } });
    expect(asked.statusCode, asked.body).toBe(409);
    const question = asked.json();
    expect(question.code).toBe('14115');
    expect(question.message).toMatch(/^Is this the same account as Checking \.\.\.2632\? "Everyday/);
    expect(question.details.ask).toEqual(['sameAs']);
    const [q] = question.details.sameAs;
    expect(q.candidates.map((c: { accountId: string; matchedBy: string }) => [c.accountId, c.matchedBy])).toEqual([[second.accounts[0].id, 'amounts']]);
    expect(await transactionsOf(production, customerId)).toHaveLength(10);

    const answered = await uploadStatement(ctx, production, customerId, csv, {
      type: 'text/csv',
      institutionId: bank,
      query: { accountName: 'Everyday', sameAs: JSON.stringify({ [q.ref]: second.accounts[0].id }) },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toMatchObject({ transactionsAdded: 0, transactionsMatched: 10, accountMatches: [{ ref: q.ref, matchedBy: 'answer' }] });
    expect(await accountsOf(production, customerId)).toHaveLength(1);
    expect(await transactionsOf(production, customerId)).toHaveLength(10);

    // Answered "new", the file makes an account of its own.
    const apart = await uploadStatement(ctx, production, customerId, csv, {
      type: 'text/csv',
      institutionId: bank,
      query: { accountName: 'Everyday', sameAs: JSON.stringify({ [q.ref]: 'new' }) },
    });
    expect(apart.json()).toMatchObject({ transactionsAdded: 10, transactionsMatched: 0 });
    expect(await accountsOf(production, customerId)).toHaveLength(2);
  });

  it('a file of two accounts, one answered as an account of an earlier file at the same institution, goes into it and adds the other beside it', async () => {
    const customerId = await addCustomer(ctx, production, { type: 'active' });
    const now = nowOf(ctx);
    const ten = tenTransactions(now, 'M');
    const csv = [
      'Date,Description,Amount',
      ...ten.slice(0, 5).map((t) => `${new Date(t.posted * 1000).toISOString().slice(0, 10)},${t.name},${t.amount.toFixed(2)}`),
    ].join('\n');
    const first = await uploadStatement(ctx, production, customerId, csv, { type: 'text/csv', institutionId: bank, query: { accountName: 'Everyday' } });
    expect(first.statusCode, first.body).toBe(200);
    const everyday = first.json().accounts[0] as AccountJson;

    // The same five as an OFX file's first account (no account number to go by, so it asks), and a second account.
    const both = qfxFile(ACCT, ten.slice(0, 5), now).replace(
      '</STMTTRNRS>',
      `</STMTTRNRS><STMTTRNRS><TRNUID>2<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
<BANKACCTFROM><BANKID>${BANK}<ACCTID>000123457001<ACCTTYPE>SAVINGS</BANKACCTFROM>
<BANKTRANLIST><DTSTART>${ofxDate(now - 60 * DAY)}<DTEND>${ofxDate(now)}
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>${ofxDate(now - 2 * DAY)}<TRNAMT>15.02<FITID>M7001-1<NAME>INTEREST</STMTTRN>
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>${ofxDate(now - DAY)}<TRNAMT>500.00<FITID>M7001-2<NAME>FROM CHECKING</STMTTRN>
</BANKTRANLIST><LEDGERBAL><BALAMT>8015.02<DTASOF>${ofxDate(now)}</LEDGERBAL></STMTRS></STMTTRNRS>`,
    );
    const asked = await upload(production, customerId, both, bank);
    expect(asked.statusCode, asked.body).toBe(409);
    const [q] = asked.json().details.sameAs;
    expect(q.candidates.map((c: { accountId: string }) => c.accountId)).toEqual([everyday.id]);

    // The matched account is the upload's own login's: the upload already holds that login when it comes to its own.
    const answered = await upload(production, customerId, both, bank, { sameAs: JSON.stringify({ [q.ref]: everyday.id }) });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toMatchObject({
      transactionsAdded: 2,
      transactionsMatched: 5,
      loginCreated: false,
      accountMatches: [{ ref: q.ref, accountId: everyday.id, matchedBy: 'answer' }],
    });
    const accounts = await accountsOf(production, customerId);
    expect(accounts.map((a) => a.id).sort()).toEqual([everyday.id, answered.json().accounts[1].id].sort());
    expect(new Set(accounts.map((a) => a.institutionLoginId))).toEqual(new Set([everyday.institutionLoginId]));
    expect(await transactionsOf(production, customerId)).toHaveLength(7);
    // The lease is given back: the next upload of the same login goes straight in.
    const lease = await ctx.runtime.database.kysely
      .selectFrom('institution_logins')
      .select(['refresh_lease_owner', 'refresh_lease_until'])
      .where('id', '=', Number(everyday.institutionLoginId))
      .executeTakeFirstOrThrow();
    expect(lease.refresh_lease_owner).toBeNull();
  });

  it('two exports of one account in a three-decimal currency, answered as one: every row of the second matched, half cents too', async () => {
    const customerId = await addCustomer(ctx, production, { type: 'active' });
    const now = nowOf(ctx);
    const iso = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10);
    // Half cents (-12.345, 312.125) round differently in SQLite, PostgreSQL and JavaScript.
    const rows: [number, string, string][] = [
      [now - 9 * DAY, 'KWIK MART', '-12.345'],
      [now - 8 * DAY, 'ALGHANIM PAYROLL', '312.125'],
      [now - 7 * DAY, 'SULTAN CENTER', '-20.500'],
      [now - 6 * DAY, 'ZAIN TELECOM', '-30.250'],
    ];
    const csv = (shift: number) => ['Date,Description,Amount', ...rows.map(([d, name, amount]) => `${iso(d + shift)},${name},${amount}`)].join('\n');
    const first = await uploadStatement(ctx, production, customerId, csv(0), {
      type: 'text/csv',
      institutionId: bank,
      query: { accountName: 'Current', currency: 'KWD' },
    });
    expect(first.statusCode, first.body).toBe(200);
    // The other export dates each a day later (its posting day).
    const query = { accountName: 'Current account export', currency: 'KWD' };
    const asked = await uploadStatement(ctx, production, customerId, csv(DAY), { type: 'text/csv', institutionId: bank, query });
    expect(asked.statusCode, asked.body).toBe(409);
    const [q] = asked.json().details.sameAs;
    const answered = await uploadStatement(ctx, production, customerId, csv(DAY), {
      type: 'text/csv',
      institutionId: bank,
      query: { ...query, sameAs: JSON.stringify({ [q.ref]: first.json().accounts[0].id }) },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toMatchObject({ transactionsAdded: 0, transactionsMatched: 4 });
    expect((await transactionsOf(production, customerId)).map((t) => t.amount).sort((a, b) => a - b)).toEqual([-30.25, -20.5, -12.345, 312.125]);
  });

  it('live, then a file before the first refresh: the first refresh still loads the initial history', async () => {
    const customerId = await addCustomer(ctx, production, { type: 'active' });
    const now = nowOf(ctx);
    // A transaction every nine days over the last three months, at the institution.
    const history: OfxServerTransaction[] = Array.from({ length: 10 }, (_, i) => ({
      fitId: `K${i}`,
      type: 'DEBIT',
      posted: now - (2 + i * 9) * DAY,
      amount: -(10 + i),
      name: `SHOP ${String.fromCharCode(65 + i)}`,
    }));
    const [live] = await linkLive(customerId, 'first', history);
    // The customer's download of the last days goes into the linked account before anything refreshed it.
    const uploaded = await upload(production, customerId, qfxFile(ACCT, history.slice(0, 1), now), bank);
    expect(uploaded.json()).toMatchObject({ transactionsAdded: 1, accountMatches: [{ accountId: live!.id, matchedBy: 'accountNumber' }] });
    await refresh(ctx, production, customerId);
    expect((await transactionsOf(production, customerId)).map((t) => t.description).sort()).toEqual(history.map((t) => t.name).sort());
  });

  it('a file whose account a live sign-in takes over while the upload waits is refused with 409, and goes into it when sent again', async () => {
    const customerId = await addCustomer(ctx, production, { type: 'active' });
    const ten = tenTransactions(nowOf(ctx), 'T');
    const file = qfxFile(ACCT, ten, nowOf(ctx));
    const first = await upload(production, customerId, file, bank);
    expect(first.statusCode, first.body).toBe(200);
    const fileAccount = first.json().accounts[0] as AccountJson;

    // The same file again; once its accounts are placed (into the file's own account), the customer links the
    // account live, which takes the file's account over and deletes the emptied file login.
    const place = vi.mocked(placeStatementAccounts);
    const real = place.getMockImplementation()!;
    place.mockImplementationOnce(async (...args) => {
      const placed = await real(...args);
      expect((await linkLive(customerId, 'second', ten)).map((a) => a.id)).toEqual([fileAccount.id]);
      return placed;
    });
    const refused = await upload(production, customerId, file, bank);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ code: '325', message: expect.stringMatching(/changed while this upload waited/) });
    // Nothing written into the live account under a new, empty file login.
    expect((await loginsOf(customerId)).map((l) => l.source)).toEqual(['connector']);
    expect((await accountsOf(production, customerId)).map((a) => [a.id, a.name])).toEqual([[fileAccount.id, 'Everyday Checking']]);

    const again = await upload(production, customerId, file, bank);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ transactionsAdded: 0, accountMatches: [{ accountId: fileAccount.id, matchedBy: 'accountNumber' }] });
    expect(await transactionsOf(production, customerId)).toHaveLength(10);
  });

  it("a refresh that finds an account deleted while the institution answered stores the login's other accounts", async () => {
    const customerId = await addCustomer(ctx, production, { type: 'active' });
    const ten = tenTransactions(nowOf(ctx), 'R');
    ofx.setAccounts('second', [
      { kind: 'bank', bankId: BANK, acctId: ACCT, acctType: 'CHECKING', balance: 1520.33, description: 'Everyday Checking', transactions: ten.slice(1) },
      { kind: 'bank', bankId: BANK, acctId: '000123457001', acctType: 'SAVINGS', balance: 8000, description: 'Savings', transactions: [] },
    ]);
    const linked = (
      await api(production, 'POST', `/aggregation/v1/customers/${customerId}/institutions/${bank}/accounts/addall`, loginForm(bank, 'second', 'pw-1'))
    ).accounts as AccountJson[];
    await refresh(ctx, production, customerId);
    expect(await transactionsOf(production, customerId)).toHaveLength(9);
    ofx.setTransactions('second', ACCT, ten);
    ofx.hold('second');
    try {
      const refreshing = ctx.app.inject({ method: 'POST', url: `/aggregation/v1/customers/${customerId}/accounts`, headers: production.headers, payload: {} });
      await ofx.whenHeld(1, 'second');
      const savings = linked.find((a) => a.type === 'savings')!;
      const deleted = await ctx.app.inject({
        method: 'DELETE',
        url: `/aggregation/v1/customers/${customerId}/accounts/${savings.id}`,
        headers: production.headers,
      });
      expect(deleted.statusCode, deleted.body).toBe(204);
      ofx.release('second');
      const res = await refreshing;
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      ofx.release('second');
    }
    expect((await accountsOf(production, customerId)).map((a) => a.type)).toEqual(['checking']);
    expect(await transactionsOf(production, customerId)).toHaveLength(10);
  });

  it('an upload into a live login and its own file login takes their leases in id order, so two uploads cannot hold one each', async () => {
    const customerId = await addCustomer(ctx, production, { type: 'active' });
    const now = nowOf(ctx);
    const ten = tenTransactions(now, 'O');
    const savings = qfxFile('000123457001', tenTransactions(now, 'P').slice(0, 3), now);
    const first = await upload(production, customerId, savings, bank);
    expect(first.statusCode, first.body).toBe(200);
    const fileLogin = Number(first.json().institutionLoginId);
    const [live] = await linkLive(customerId, 'first', ten);
    const liveLogin = Number(live!.institutionLoginId);
    expect(fileLogin).toBeLessThan(liveLogin);

    // One file with both: the checking account goes into the live login's, the savings account into the file's own.
    const both = qfxFile(ACCT, ten, now).replace(
      '</STMTTRNRS>',
      `</STMTTRNRS>${savings.slice(savings.indexOf('<STMTTRNRS>'), savings.indexOf('</STMTTRNRS>'))}</STMTTRNRS>`,
    );
    // Another upload holds the file login.
    await ctx.runtime.database.kysely
      .updateTable('institution_logins')
      .set({ refresh_lease_owner: 'upload:another', refresh_lease_until: now + 3600 })
      .where('id', '=', fileLogin)
      .execute();
    const looks = vi.mocked(refreshLeaseUntil);
    looks.mockClear();
    const sent = upload(production, customerId, both, bank);
    try {
      await waitFor('the upload to wait for the file login', () => looks.mock.calls.some(([, id]) => Number(id) === fileLogin));
      // Waiting for the lower id, it holds nothing after it: the live login stays free for a refresh or another upload.
      const liveLease = await ctx.runtime.database.kysely
        .selectFrom('institution_logins')
        .select('refresh_lease_owner')
        .where('id', '=', liveLogin)
        .executeTakeFirstOrThrow();
      expect(liveLease.refresh_lease_owner).toBeNull();
    } finally {
      await ctx.runtime.database.kysely
        .updateTable('institution_logins')
        .set({ refresh_lease_owner: null, refresh_lease_until: null })
        .where('id', '=', fileLogin)
        .execute();
    }
    const res = await sent;
    expect(res.statusCode, res.body).toBe(200);
    // The live account had not been refreshed: the file's ten are new there; the savings account had its three.
    expect(res.json()).toMatchObject({
      transactionsAdded: 10,
      transactionsAlreadyPresent: 3,
      accountMatches: [{ accountId: live!.id, matchedBy: 'accountNumber' }],
    });
  });

  it('a file whose two accounts share an OFX account id, then the same accounts linked live: a live login takes them over and refreshes them', async () => {
    const customerId = await addCustomer(ctx, production, { type: 'active' });
    const now = nowOf(ctx);
    const MEMBER = '0004417';
    // A credit union's member number for both shares: the reader gives them the refs the live connector does.
    const file = qfxFile(MEMBER, [{ fitId: 'Q1', type: 'DEBIT', posted: now - DAY, amount: -9.99, name: 'SPOTIFY' }], now).replace(
      '</STMTTRNRS>',
      `</STMTTRNRS><STMTTRNRS><TRNUID>2<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
<BANKACCTFROM><BANKID>${BANK}<ACCTID>${MEMBER}<ACCTTYPE>SAVINGS</BANKACCTFROM>
<BANKTRANLIST><DTSTART>${ofxDate(now - 60 * DAY)}<DTEND>${ofxDate(now)}
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>${ofxDate(now - 2 * DAY)}<TRNAMT>1.02<FITID>Q2<NAME>DIVIDEND</STMTTRN>
</BANKTRANLIST><LEDGERBAL><BALAMT>500.00<DTASOF>${ofxDate(now)}</LEDGERBAL></STMTRS></STMTTRNRS>`,
    );
    const uploaded = await upload(production, customerId, file, bank);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const fileAccounts = (uploaded.json().accounts as AccountJson[]).map((a) => a.id).sort();

    ofx.setAccounts('second', [
      { kind: 'bank', bankId: BANK, acctId: MEMBER, acctType: 'CHECKING', balance: 1520.33, description: 'Share Draft', transactions: [] },
      { kind: 'bank', bankId: BANK, acctId: MEMBER, acctType: 'SAVINGS', balance: 500, description: 'Share Savings', transactions: [] },
    ]);
    const linked = (
      await api(production, 'POST', `/aggregation/v1/customers/${customerId}/institutions/${bank}/accounts/addall`, loginForm(bank, 'second', 'pw-1'))
    ).accounts as AccountJson[];
    expect(linked.map((a) => a.id).sort()).toEqual(fileAccounts);
    expect((await loginsOf(customerId)).map((l) => l.source)).toEqual(['connector']);

    ofx.setTransactions('second', MEMBER, [{ fitId: 'Q9', type: 'DEBIT', posted: now - DAY / 2, amount: -42, name: 'NEW LIVE ONE' }]);
    await refresh(ctx, production, customerId);
    expect((await transactionsOf(production, customerId)).map((t) => t.description)).toContain('NEW LIVE ONE');
  });

  it('SimpleFIN then OFX: the file of the same last four at another institution asks, and once answered its duplicates are matched by date, amount and description', async () => {
    const customerId = await addCustomer(ctx, production, { type: 'active' });
    const now = nowOf(ctx);
    const ten = tenTransactions(now, 'S');
    const token = bridge.createSetupToken({
      accounts: [
        {
          id: 'ACT-2632',
          name: 'Everyday Checking 2632',
          balance: '1520.33',
          'balance-date': now - 60,
          // The bridge dates them a day later and names them its own way.
          transactions: ten.map((t, i) => ({
            id: `TRN-${i}`,
            posted: t.posted + DAY,
            amount: t.amount.toFixed(2),
            description: (t.name ?? '').toLowerCase(),
          })),
        },
      ],
    });
    const linked = await api(production, 'POST', `/aggregation/v1/customers/${customerId}/institutions/${SIMPLEFIN_INSTITUTION_ID}/accounts/addall`, {
      credentials: [{ id: `${SIMPLEFIN_INSTITUTION_ID}001`, value: token }],
    });
    const simplefin = linked.accounts[0] as AccountJson;
    await refresh(ctx, production, customerId);
    expect(await transactionsOf(production, customerId)).toHaveLength(10);

    const file = qfxFile(ACCT, ten, now);
    const asked = await upload(production, customerId, file, bank);
    expect(asked.statusCode, asked.body).toBe(409);
    const { details, message } = asked.json();
    expect(message).toBe(
      'Is this the same account as Everyday Checking 2632? "Checking ...2632" may be an account the customer already has. Send the request again with sameAs naming, for each account in details.sameAs, the account it is (its accountId) or "new".',
    );
    expect(details.sameAs[0].candidates).toEqual([
      expect.objectContaining({
        accountId: simplefin.id,
        matchedBy: 'lastFour',
        institutionId: String(SIMPLEFIN_INSTITUTION_ID),
        accountNumberDisplay: '2632',
      }),
    ]);
    // Asked in XML too, the same question.
    const xml = await uploadStatement(ctx, production, customerId, file, { type: 'application/vnd.intu.qfx', institutionId: bank, accept: 'application/xml' });
    expect(xml.statusCode).toBe(409);
    expect(xml.body).toContain(`<sameAs><account><ref>${details.sameAs[0].ref}</ref>`);
    expect(xml.body).toContain(`<accountId>${simplefin.id}</accountId>`);
    expect((await loginsOf(customerId)).map((l) => l.source)).toEqual(['connector']);

    const answered = await upload(production, customerId, file, bank, { sameAs: JSON.stringify({ [details.sameAs[0].ref]: simplefin.id }) });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toMatchObject({ transactionsAdded: 0, transactionsMatched: 10 });
    const stored = await transactionsOf(production, customerId);
    expect(stored).toHaveLength(10);
    expect(new Set(stored.map((t) => t.source))).toEqual(new Set(['simplefin']));
    expect(await createdEvents(customerId)).toBe(10);
  });

  it("never offers another partner's or another customer's accounts as candidates", async () => {
    // Partner B's customer and partner A's other customer hold an account of the same number at the same bank.
    const theirs = await addCustomer(ctx, other);
    const ten = tenTransactions(nowOf(ctx), 'P');
    expect(
      (await uploadStatement(ctx, other, theirs, qfxFile(ACCT, ten, nowOf(ctx)), { type: 'application/vnd.intu.qfx', institutionId: FINBANK })).statusCode,
    ).toBe(200);
    const sibling = await addCustomer(ctx, other);
    expect(
      (await uploadStatement(ctx, other, sibling, qfxFile(ACCT, ten, nowOf(ctx)), { type: 'application/vnd.intu.qfx', institutionId: FINBANK })).json(),
    ).toMatchObject({
      transactionsAdded: 10,
      transactionsMatched: 0,
      accountMatches: [],
    });

    const mine = await addCustomer(ctx, production, { type: 'active' });
    const res = await upload(production, mine, qfxFile(ACCT, ten, nowOf(ctx)), FINBANK);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ loginCreated: true, transactionsAdded: 10, transactionsMatched: 0, accountMatches: [] });

    // A CSV of no number with the same amounts asks about this customer's account alone.
    const csv = ['Date,Description,Amount', ...ten.map((t) => `${new Date(t.posted * 1000).toISOString().slice(0, 10)},${t.name},${t.amount.toFixed(2)}`)].join(
      '\n',
    );
    const asked = await uploadStatement(ctx, production, mine, csv, { type: 'text/csv', institutionId: FINBANK });
    expect(asked.statusCode, asked.body).toBe(409);
    const [q] = asked.json().details.sameAs;
    expect(q.candidates.map((c: { accountId: string }) => c.accountId)).toEqual([res.json().accounts[0].id]);
    // An answer naming another partner's account is refused, and nothing of theirs changes.
    const theirAccount = (await accountsOf(other, theirs))[0]!;
    const refused = await uploadStatement(ctx, production, mine, csv, {
      type: 'text/csv',
      institutionId: FINBANK,
      query: { sameAs: JSON.stringify({ [q.ref]: theirAccount.id }) },
    });
    expect([refused.statusCode, refused.json().code]).toEqual([400, '10010']);
    expect((await accountsOf(other, theirs)).map((a) => a.id)).toEqual([theirAccount.id]);
    expect(await transactionsOf(other, theirs)).toHaveLength(10);
    expect(await transactionsOf(production, mine)).toHaveLength(10);
  });
});
