import fs from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceCustomerClock } from '../../src/modules/aggregation/clock.service.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { DAY, linkProfile, nowOf, refresh, type AccountJson } from '../helpers/aggregation.js';
import { ofxDay, ofxStatementFile } from '../helpers/statement-files.js';
import { statementUploads } from '../helpers/statement-uploads.js';

interface DailyBalanceJson {
  date: string;
  balance: number;
  availableBalance?: number;
  currency: string;
  source: 'refresh' | 'statement' | 'derived';
}

const xml = new XMLParser({ parseTagValue: false, isArray: (_name, jpath) => jpath === 'balanceHistory.balance' });
const dayOf = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10);
const historyPath = (customerId: string, accountId: string | number, query = '') =>
  `/aggregation/v1/customers/${customerId}/accounts/${accountId}/balances/history${query ? `?${query}` : ''}`;

async function historyOf(ctx: TestContext, who: TestPartner, customerId: string, accountId: string | number, query = ''): Promise<DailyBalanceJson[]> {
  const res = await ctx.app.inject({ method: 'GET', url: historyPath(customerId, accountId, query), headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ balances: DailyBalanceJson[] }>().balances;
}

describe('balance history after refreshes of the test bank', () => {
  let ctx: TestContext;
  let partner: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
  });
  afterAll(() => ctx.close());

  const byType = (accounts: AccountJson[], type: string) => {
    const found = accounts.find((a) => a.type === type);
    if (!found) throw new Error(`the profile has no ${type} account`);
    return found;
  };

  it("records the refresh's balance and derives the window's days from the posted transactions, one row per day", async () => {
    const customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'profile_01');
    const accounts = await refresh(ctx, partner, customerId);
    const checking = byType(accounts, 'checking');
    const history = await historyOf(ctx, partner, customerId, checking.id);
    const today = dayOf(nowOf(ctx));

    const last = history.at(-1)!;
    expect(last).toMatchObject({ date: today, balance: checking.balance, currency: 'USD', source: 'refresh' });
    expect(last.availableBalance).toBe((checking.detail as { availableBalanceAmount: number }).availableBalanceAmount);
    // The initial aggregation fetched 180 days: every day of it before today is derived, once, in order.
    const derived = history.slice(0, -1);
    expect(derived).toHaveLength(180);
    expect(derived.every((d) => d.source === 'derived' && d.availableBalance === undefined)).toBe(true);
    expect(derived[0]!.date).toBe(dayOf(nowOf(ctx) - 180 * DAY));
    expect(new Set(history.map((d) => d.date)).size).toBe(history.length);
    expect(history.map((d) => d.date)).toEqual([...history.map((d) => d.date)].sort());
  });

  it('derives the balance a refresh at the end of that day reads (the test bank is deterministic)', async () => {
    const start = ctx.clock.now();
    const earlier = await addCustomer(ctx, partner);
    const later = await addCustomer(ctx, partner);
    // One customer refreshes in the last second of a day three weeks back, the other today: the same books.
    const endOfDay = (Math.floor(start / 1000 / DAY) - 20) * DAY + DAY - 1;
    ctx.clock.set(endOfDay * 1000);
    try {
      await linkProfile(ctx, partner, earlier, 'profile_02');
      const then = await refresh(ctx, partner, earlier);
      ctx.clock.set(start);
      await linkProfile(ctx, partner, later, 'profile_02');
      const now = await refresh(ctx, partner, later);
      for (const type of ['checking', 'creditCard']) {
        const observed = (await historyOf(ctx, partner, earlier, byType(then, type).id)).find((d) => d.date === dayOf(endOfDay));
        expect(observed).toMatchObject({ source: 'refresh', balance: byType(then, type).balance });
        const derived = (await historyOf(ctx, partner, later, byType(now, type).id)).find((d) => d.date === dayOf(endOfDay));
        expect(derived, type).toEqual({ ...observed, source: 'derived', availableBalance: undefined });
      }
    } finally {
      ctx.clock.set(start);
    }
  });

  it('keeps each refresh as observed as the customer clock moves, derived days between them, observed never replaced by derived', async () => {
    const customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'profile_01');
    const first = byType(await refresh(ctx, partner, customerId), 'checking');
    const firstDay = dayOf(nowOf(ctx));
    const moved = await advanceCustomerClock(ctx.app.engine, partner.partnerId, customerId, 5 * DAY);
    const second = byType(await refresh(ctx, partner, customerId), 'checking');
    const history = await historyOf(ctx, partner, customerId, first.id);
    const observed = history.filter((d) => d.source === 'refresh');
    expect(observed.map((d) => [d.date, d.balance])).toEqual([
      [firstDay, first.balance],
      [dayOf(moved), second.balance],
    ]);
    const between = history.filter((d) => d.date > firstDay && d.date < dayOf(moved));
    expect(between.map((d) => d.source)).toEqual(['derived', 'derived', 'derived', 'derived']);

    // A second refresh the same day replaces that day's observation with its own (a later one of the same day).
    await advanceCustomerClock(ctx.app.engine, partner.partnerId, customerId, 3600);
    const third = byType(await refresh(ctx, partner, customerId), 'checking');
    const again = await historyOf(ctx, partner, customerId, first.id);
    expect(again.filter((d) => d.source === 'refresh').map((d) => [d.date, d.balance])).toEqual([
      [firstDay, first.balance],
      [dayOf(moved), third.balance],
    ]);
    expect(again).toHaveLength(history.length);
  });

  it('keeps the observed balances of accounts whose transactions do not make their balance (loans, investments), deriving none', async () => {
    const customerId = await addCustomer(ctx, partner);
    const linked = await linkProfile(ctx, partner, customerId, 'profile_03');
    await refresh(ctx, partner, customerId);
    for (const a of linked.filter((x) => ['loan', 'mortgage', 'investment', 'investmentTaxDeferred', 'roth'].includes(x.type))) {
      const history = await historyOf(ctx, partner, customerId, a.id);
      expect(history.map((d) => d.source)).toEqual(['refresh']);
    }
  });

  it('answers in XML from the same schema', async () => {
    const customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'profile_01');
    const checking = byType(await refresh(ctx, partner, customerId), 'checking');
    const json = await historyOf(ctx, partner, customerId, checking.id);
    const res = await ctx.app.inject({ method: 'GET', url: historyPath(customerId, checking.id), headers: { ...partner.headers, accept: 'application/xml' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    const doc = xml.parse(res.body);
    const balances = doc.balanceHistory.balance as Record<string, string>[];
    expect(balances).toHaveLength(json.length);
    expect(balances.at(-1)).toEqual({
      date: json.at(-1)!.date,
      balance: String(json.at(-1)!.balance),
      availableBalance: String(json.at(-1)!.availableBalance),
      currency: 'USD',
      source: 'refresh',
    });
    expect(balances[0]!.source).toBe('derived');
    expect(balances[0]!.availableBalance).toBeUndefined();
  });

  it('filters by the days holding fromDate and toDate (epoch seconds, inclusive) and refuses bad dates with 10010', async () => {
    const customerId = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, customerId, 'profile_01');
    const checking = byType(await refresh(ctx, partner, customerId), 'checking');
    const now = nowOf(ctx);
    // Any second of a day names the whole day.
    const week = await historyOf(ctx, partner, customerId, checking.id, `fromDate=${now - 7 * DAY + 5}&toDate=${now - DAY}`);
    expect(week.map((d) => d.date)).toEqual([7, 6, 5, 4, 3, 2, 1].map((n) => dayOf(now - n * DAY)));
    expect((await historyOf(ctx, partner, customerId, checking.id, `fromDate=${now}`)).map((d) => d.date)).toEqual([dayOf(now)]);
    expect(await historyOf(ctx, partner, customerId, checking.id, `toDate=${now - 400 * DAY}`)).toEqual([]);

    for (const [query, code] of [
      [`fromDate=${now}&toDate=${now - DAY}`, '10010'],
      ['fromDate=abc', '10010'],
      ['toDate=-1', '10010'],
      ['fromDate=1.5', '10010'],
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url: historyPath(customerId, checking.id, query), headers: partner.headers });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code, query).toBe(code);
    }
  });

  it("answers 404 for another partner's account, an unknown account and another customer's account", async () => {
    const customerId = await addCustomer(ctx, partner);
    const [account] = await linkProfile(ctx, partner, customerId, 'profile_01');
    const other = await partnerWithToken(ctx);
    const otherCustomer = await addCustomer(ctx, other);
    const ownCustomer = await addCustomer(ctx, partner);
    for (const [who, customer, id] of [
      [other, customerId, account!.id],
      [other, otherCustomer, account!.id],
      [partner, ownCustomer, account!.id],
      [partner, customerId, '5011999999'],
      [partner, customerId, 'abc'],
    ] as const) {
      const res = await ctx.app.inject({ method: 'GET', url: historyPath(customer, id), headers: who.headers });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('14001');
    }
  });

  it('goes with its account', async () => {
    const customerId = await addCustomer(ctx, partner);
    const [account] = await linkProfile(ctx, partner, customerId, 'profile_01');
    await refresh(ctx, partner, customerId);
    const del = await ctx.app.inject({ method: 'DELETE', url: `/aggregation/v1/customers/${customerId}/accounts/${account!.id}`, headers: partner.headers });
    expect(del.statusCode).toBe(204);
    const rows = await ctx.runtime.database.kysely.selectFrom('account_balances').select('day').where('account_id', '=', Number(account!.id)).execute();
    expect(rows).toEqual([]);
  });
});

describe('balance history after statement uploads', () => {
  const uploads = statementUploads('2026-04-10T12:00:00Z');

  it("records an OFX file's LEDGERBAL at its DTASOF as a statement balance and derives the days back to before its first transaction", async () => {
    const customerId = await uploads.customer();
    const file = ofxStatementFile(
      [
        {
          acctId: '99001',
          balance: 500,
          transactions: [
            { fitId: 'F1', date: ofxDay(60), amount: -40, name: 'GROCER' },
            { fitId: 'F2', date: ofxDay(62), amount: 1000, name: 'PAYROLL' },
            { fitId: 'F3', date: ofxDay(62), amount: -60.5, name: 'FUEL' },
          ],
        },
      ],
      ofxDay(64),
    );
    const body = await uploads.uploadOk(customerId, file, { type: 'application/x-ofx' });
    const accountId = body.accounts[0].id;
    const history = await historyOf(uploads.ctx, uploads.partner, customerId, accountId);
    const date = (day: number) => `2026-${ofxDay(day).slice(4, 6)}-${ofxDay(day).slice(6, 8)}`;
    expect(history).toEqual([
      { date: date(59), balance: -399.5, currency: 'USD', source: 'derived' },
      { date: date(60), balance: -439.5, currency: 'USD', source: 'derived' },
      { date: date(61), balance: -439.5, currency: 'USD', source: 'derived' },
      { date: date(62), balance: 500, currency: 'USD', source: 'derived' },
      { date: date(63), balance: 500, currency: 'USD', source: 'derived' },
      { date: date(64), balance: 500, currency: 'USD', source: 'statement' },
    ]);
  });

  it('records every day of small accounts whose balances reach back years, those over a slice of rows in slices of their own', async () => {
    const customerId = await uploads.customer();
    // One transaction each: each account is stored in one database transaction, its balance rows with it while they
    // fit in a slice (500), the rest after it; all must be there, for every account of the file.
    const file = ofxStatementFile(
      [
        { acctId: '99101', balance: 500, transactions: [{ fitId: 'L1', date: ofxDay(-600), amount: -10, name: 'OLD SHOP' }] },
        { acctId: '99102', balance: 80, transactions: [{ fitId: 'S1', date: ofxDay(92), amount: 20, name: 'REFUND' }] },
        { acctId: '99103', balance: 7, transactions: [{ fitId: 'L2', date: ofxDay(-700), amount: 3, name: 'INTEREST' }] },
      ],
      ofxDay(95),
    );
    const body = await uploads.uploadOk(customerId, file, { type: 'application/x-ofx' });
    const date = (day: number) => `${ofxDay(day).slice(0, 4)}-${ofxDay(day).slice(4, 6)}-${ofxDay(day).slice(6, 8)}`;
    const expected = (firstDay: number, txDay: number, closing: number, amount: number) =>
      Array.from({ length: 95 - firstDay + 1 }, (_, i) => {
        const day = firstDay + i;
        return { date: date(day), balance: day < txDay ? closing - amount : closing, currency: 'USD', source: day === 95 ? 'statement' : 'derived' };
      });
    const [long, short, longer] = body.accounts as { id: string }[];
    const histories = await Promise.all([long!, short!, longer!].map((a) => historyOf(uploads.ctx, uploads.partner, customerId, a.id)));
    expect(histories.map((h) => h.length)).toEqual([697, 5, 797]);
    expect(histories[0]).toEqual(expected(-601, -600, 500, -10));
    expect(histories[1]).toEqual(expected(91, 92, 80, 20));
    expect(histories[2]).toEqual(expected(-701, -700, 7, 3));
  });

  it('replaces a statement balance by a later one of the same day; an older statement uploaded later fills earlier days only', async () => {
    const customerId = await uploads.customer();
    const statement = (balance: number, asOf: number, fitId: string, day: number, amount: number) =>
      ofxStatementFile([{ acctId: '99002', balance, transactions: [{ fitId, date: ofxDay(day), amount, name: 'SHOP' }] }], ofxDay(asOf));
    const newer = await uploads.uploadOk(customerId, statement(300, 80, 'N1', 79, -20), { type: 'application/x-ofx' });
    const accountId = newer.accounts[0].id;
    await uploads.uploadOk(customerId, statement(250, 70, 'O1', 69, -10), { type: 'application/x-ofx' });
    await uploads.uploadOk(customerId, statement(310, 80, 'N2', 80, -5), { type: 'application/x-ofx' });
    const history = await historyOf(uploads.ctx, uploads.partner, customerId, accountId);
    expect(history.map((d) => [d.date, d.balance, d.source])).toEqual([
      ['2026-03-10', 260, 'derived'],
      ['2026-03-11', 250, 'derived'],
      ['2026-03-12', 250, 'statement'],
      ['2026-03-20', 320, 'derived'],
      ['2026-03-21', 315, 'derived'],
      ['2026-03-22', 310, 'statement'],
    ]);
    // The account keeps the newest balance, whichever file came last.
    const account = await uploads.ctx.app.inject({
      method: 'GET',
      url: `/aggregation/v2/customers/${customerId}/accounts/${accountId}`,
      headers: uploads.partner.headers,
    });
    expect(account.json().balance).toBe(310);
  });

  it("records a camt.053 file's closing booked balance with its available balance, derived back to its opening balance", async () => {
    const customerId = await uploads.customer();
    const file = fs.readFileSync('test/fixtures/statements/camt/statement-053-v02.xml');
    const body = await uploads.uploadOk(customerId, file, { type: 'application/xml' });
    const history = await historyOf(uploads.ctx, uploads.partner, customerId, body.accounts[0].id);
    expect(history.at(-1)).toEqual({ date: '2026-03-31', balance: 2532.93, availableBalance: 2500, currency: 'EUR', source: 'statement' });
    // The statement's opening balance (OPBD, 1000.00 on 03-01) is what the entries and the closing balance give back.
    expect(history[0]).toMatchObject({ date: '2026-03-01', balance: 1000, source: 'derived' });
  });

  it("keeps every statement's closing balance of a file of several (camt), each at its day", async () => {
    const customerId = await uploads.customer();
    const file = fs.readFileSync('test/fixtures/statements/camt/two-statements-053-v04.xml');
    const body = await uploads.uploadOk(customerId, file, { type: 'application/xml' });
    const history = await historyOf(uploads.ctx, uploads.partner, customerId, body.accounts[0].id);
    expect(history.filter((d) => d.source === 'statement').map((d) => [d.date, d.balance])).toEqual([
      ['2026-03-15', 500],
      ['2026-03-31', 610],
    ]);
    expect(history.every((d, i) => i === 0 || d.date > history[i - 1]!.date)).toBe(true);
  });

  it("takes a CSV file's running balance after each day's last row as that day's statement balance, in either row order", async () => {
    const rows = [
      ['03/02/2026', 'COFFEE', '-4.50', '995.50'],
      ['03/02/2026', 'LUNCH', '-12.00', '983.50'],
      ['03/04/2026', 'SALARY', '1500.00', '2483.50'],
    ];
    for (const order of [rows, [...rows].reverse()]) {
      const customerId = await uploads.customer();
      const csv = ['Date,Description,Amount,Balance', ...order.map((r) => r.join(','))].join('\n');
      const body = await uploads.uploadOk(customerId, csv, { type: 'text/csv' });
      const history = await historyOf(uploads.ctx, uploads.partner, customerId, body.accounts[0].id);
      expect(history.map((d) => [d.date, d.balance, d.source])).toEqual([
        ['2026-03-01', 1000, 'derived'],
        ['2026-03-02', 983.5, 'statement'],
        ['2026-03-03', 983.5, 'derived'],
        ['2026-03-04', 2483.5, 'statement'],
      ]);
    }
  });

  it('adds nothing for a file that states no balance (QIF)', async () => {
    const customerId = await uploads.customer();
    const qif = '!Type:Bank\nD03/02/2026\nT-12.50\nPCORNER SHOP\n^\nD03/04/2026\nT100.00\nPREFUND\n^\n';
    const body = await uploads.uploadOk(customerId, qif, { type: 'application/qif' });
    expect(await historyOf(uploads.ctx, uploads.partner, customerId, body.accounts[0].id)).toEqual([]);
  });
});
