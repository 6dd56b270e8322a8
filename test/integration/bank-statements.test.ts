import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { type AccountJson, allTransactions, DAY, linkProfile, nowOf, refresh } from '../helpers/aggregation.js';
import { partnerWithToken, type TestPartner } from '../helpers/context.js';
import { dashboardSignIn } from '../helpers/dashboard.js';
import { ofxStatementFile } from '../helpers/statement-files.js';
import { statementUploads } from '../helpers/statement-uploads.js';
import { pdfText } from '../helpers/pdf-text.js';

const xml = new XMLParser({ parseTagValue: false, isArray: (name) => name === 'statement' });

const paths = {
  statement: (c: string, a: string | number, query = '') => `/aggregation/v1/customers/${c}/accounts/${a}/statement${query}`,
  statements: (c: string, a: string | number, query = '') => `/aggregation/v3/customers/${c}/accounts/${a}/statement${query}`,
  asset: (c: string, id: string) => `/aggregation/v1/customers/${c}/assets/${encodeURIComponent(id)}`,
};

interface StatementEntry {
  index: string;
  id?: string;
  asOfDate: number;
  description?: string;
  documentDate?: string;
  code?: string;
  message?: string;
}

/** The text of a PDF file, its pages one after another. */
const money = (amount: number) => amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe('bank statements', () => {
  // Mid-April 2026: March is the latest month that has ended.
  const t = statementUploads('2026-04-15T12:00:00Z');
  const get = (url: string, who: TestPartner = t.partner, accept = 'application/json') =>
    t.ctx.app.inject({ method: 'GET', url, headers: { ...who.headers, accept } });

  describe('an account linked at the test bank', () => {
    let customerId: string;
    let checking: AccountJson;
    const linked = async () => {
      if (customerId) return;
      customerId = await t.customer();
      await linkProfile(t.ctx, t.partner, customerId, 'profile_02');
      // The first aggregation brings the transactions and the balance history.
      checking = (await refresh(t.ctx, t.partner, customerId)).find((a) => a.type === 'checking')!;
    };

    it("answers the latest ended month's statement as a PDF file: the account, the period, every transaction with its running balance", async () => {
      await linked();
      const res = await get(paths.statement(customerId, checking.id));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="statement-${checking.id}-20260301-20260331.pdf"`);
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const text = await pdfText(res.rawPayload);
      expect(text).toContain('FinBank');
      expect(text).toContain(`Account number ${checking.accountNumberDisplay}`);
      expect(text).toContain('Statement period 03/01/2026 - 03/31/2026');
      expect(text).toContain('Currency USD');

      const from = Date.UTC(2026, 2, 1) / 1000;
      // What posted in March: a statement goes by the posting day, as the balance history does.
      const to = from + 31 * DAY - 1;
      const march = (await allTransactions(t.ctx, t.partner, customerId, { fromDate: from - 31 * DAY, toDate: to, includePending: false })).filter(
        (x) => String(x.accountId) === String(checking.id) && (x.postedDate ?? x.transactionDate) >= from && (x.postedDate ?? x.transactionDate) <= to,
      );
      expect(march.length).toBeGreaterThan(0);
      // One line per transaction, each starting with its date.
      expect(text.match(/^03\/\d\d\/2026 /gm)?.length).toBe(march.length);
      const balances = t.ctx.runtime.database.kysely.selectFrom('account_balances').select(['day', 'balance']).where('account_id', '=', Number(checking.id));
      const opening = await balances.where('day', '=', '2026-02-28').executeTakeFirstOrThrow();
      const closing = await balances.where('day', '=', '2026-03-31').executeTakeFirstOrThrow();
      expect(text).toContain(`Opening balance ${money(Number(opening.balance))} USD`);
      expect(text).toContain(`Closing balance ${money(Number(closing.balance))} USD`);
      // A checking account's balance moves by its transactions alone.
      expect(text).not.toContain('Other changes in value');
      // The last line's running balance is the closing balance.
      const last = text
        .split('\n')
        .filter((l) => /^03\/\d\d\/2026 /.test(l))
        .at(-1)!;
      expect(last.endsWith(` ${money(Number(closing.balance))}`)).toBe(true);
    });

    it('answers the details of several statements by index, and each statement again as an asset', async () => {
      await linked();
      const res = await get(paths.statements(customerId, checking.id, '?index=1,2,24'));
      expect(res.statusCode, res.body).toBe(200);
      const { statements } = res.json<{ statements: StatementEntry[] }>();
      const now = nowOf(t.ctx);
      expect(statements[0]).toEqual({
        index: '1',
        id: `statement-${checking.id}-20260301-20260331`,
        asOfDate: now,
        description: '03/01/2026 - 03/31/2026',
        documentDate: '2026-03-31',
      });
      expect(statements[1]).toMatchObject({ index: '2', id: `statement-${checking.id}-20260201-20260228`, description: '02/01/2026 - 02/28/2026' });
      // The test bank keeps months, not two years: nothing at 24.
      expect(statements[2]).toEqual({ index: '24', asOfDate: now, code: '16201', message: 'statement not found.' });
      // Without index: the latest.
      expect((await get(paths.statements(customerId, checking.id))).json<{ statements: StatementEntry[] }>().statements.map((s) => s.index)).toEqual(['1']);

      const asset = await get(paths.asset(customerId, statements[0]!.id!));
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['content-type']).toBe('application/octet-stream');
      expect(asset.rawPayload.equals((await get(paths.statement(customerId, checking.id, '?index=1'))).rawPayload)).toBe(true);
      const second = await pdfText((await get(paths.asset(customerId, statements[1]!.id!))).rawPayload);
      expect(second).toContain('Statement period 02/01/2026 - 02/28/2026');

      // XML: the same entries.
      const inXml = xml.parse((await get(paths.statements(customerId, checking.id, '?index=1,24'), t.partner, 'application/xml')).body);
      expect(inXml.statements.statement).toEqual([
        { index: '1', id: statements[0]!.id, asOfDate: String(now), description: '03/01/2026 - 03/31/2026', documentDate: '2026-03-31' },
        { index: '24', asOfDate: String(now), code: '16201', message: 'statement not found.' },
      ]);
    });

    it('gives every account type statements: loans and investments too, as the reference lists them', async () => {
      await linked();
      const accounts = await refresh(t.ctx, t.partner, customerId);
      const types = new Set<string>();
      for (const account of accounts) {
        const res = await get(paths.statement(customerId, account.id));
        expect(res.statusCode, `${account.type}: ${res.body}`).toBe(200);
        const text = await pdfText(res.rawPayload);
        expect(text).toContain(`Account type ${account.type}`);
        expect(text).toContain('Statement period 03/01/2026 - 03/31/2026');
        types.add(account.type);
        // A mortgage's and an investment's history holds the balances a refresh read, none at the end of March.
        if (account.type === 'investment' || account.type === 'mortgage') expect(text).toContain('Opening balance not known');
      }
      expect([...types].sort()).toEqual(expect.arrayContaining(['creditCard', 'investment', 'loan', 'mortgage', 'savings']));
    });

    it('refuses an index out of 1 to 24 (400) and answers 404 (16201) where there is no statement, in JSON and XML', async () => {
      await linked();
      for (const query of ['?index=0', '?index=25', '?index=x']) {
        const res = await get(paths.statement(customerId, checking.id, query));
        expect([res.statusCode, res.json().code], query).toEqual([400, '10010']);
      }
      for (const query of ['?index=25', '?index=1,25', '?index=', '?index=1;2', '?index=-1']) {
        const res = await get(paths.statements(customerId, checking.id, query));
        expect([res.statusCode, res.json().code], query).toEqual([400, '10010']);
      }
      const missing = await get(paths.statement(customerId, checking.id, '?index=24'));
      expect([missing.statusCode, missing.json().code]).toEqual([404, '16201']);
      // A PDF asked for with Accept: application/xml: its errors in XML.
      const inXml = await get(paths.statement(customerId, checking.id, '?index=24'), t.partner, 'application/xml');
      expect(inXml.statusCode).toBe(404);
      expect(inXml.headers['content-type']).toMatch(/^application\/xml/);
      expect(inXml.body).toContain('<code>16201</code>');
      // The statement itself whatever Accept asks.
      const pdf = await get(paths.statement(customerId, checking.id), t.partner, 'application/xml');
      expect([pdf.statusCode, pdf.headers['content-type']]).toEqual([200, 'application/octet-stream']);
      const asset = await get(paths.asset(customerId, `statement-${checking.id}-20250101-20250131`), t.partner, 'application/xml');
      expect(asset.statusCode).toBe(404);
      expect(asset.body).toContain('<code>16202</code>');
    });

    it("downloads the latest statement from the dashboard's customer page, for the signed-in partner only", async () => {
      await linked();
      const url = `/dashboard/api/customers/${customerId}/accounts/${checking.id}/statement`;
      const mine = await (await dashboardSignIn(t.ctx, t.partner.partnerId, t.partner.partnerSecret)).call('GET', url);
      expect(mine.statusCode, mine.body).toBe(200);
      expect(mine.headers['content-type']).toBe('application/pdf');
      expect(mine.headers['content-disposition']).toBe(`attachment; filename="statement-${checking.id}-20260301-20260331.pdf"`);
      expect(mine.rawPayload.equals((await get(paths.statement(customerId, checking.id))).rawPayload)).toBe(true);
      const stranger = await partnerWithToken(t.ctx);
      const theirs = await (await dashboardSignIn(t.ctx, stranger.partnerId, stranger.partnerSecret)).call('GET', url);
      expect(theirs.statusCode).toBe(404);
    });

    it("answers 404 to another partner, for the account's statements and the customer's assets", async () => {
      await linked();
      const stranger = await partnerWithToken(t.ctx);
      const id = `statement-${checking.id}-20260301-20260331`;
      for (const url of [paths.statement(customerId, checking.id), paths.statements(customerId, checking.id), paths.asset(customerId, id)]) {
        const res = await get(url, stranger);
        expect(res.statusCode, url).toBe(404);
      }
      // Another customer of the same partner does not have the account's statement as an asset either.
      const other = await t.customer();
      const res = await get(paths.asset(other, id));
      expect([res.statusCode, res.json().code]).toEqual([404, '16202']);
      for (const bad of ['nothing', 'statement-1-2-3', `file-${crypto.randomUUID()}`]) {
        expect((await get(paths.asset(customerId, bad))).statusCode, bad).toBe(404);
      }
    });
  });

  describe('an account of an uploaded statement file', () => {
    const file = ofxStatementFile(
      [
        {
          acctId: '555000111222',
          balance: 500,
          transactions: [
            { fitId: 'G1', date: '20260203', amount: -4.5, name: 'Καφές στο κέντρο' },
            { fitId: 'G2', date: '20260210', amount: 1200, name: 'PAYROLL 🎉 ACME' },
            { fitId: 'G3', date: '20260220', amount: -95.5, name: 'Москва Store' },
          ],
        },
      ],
      '20260220',
    );

    it("lists the file's period (its DTSTART to DTEND) as a statement, writes text the standard fonts lack as Latin letters or ?, and keeps the file as an asset", async () => {
      const customerId = await t.customer();
      const upload = await t.uploadOk(customerId, file, { type: 'application/x-ofx' });
      const accountId = String(upload.accounts[0].id);
      expect(upload.fileAssetId).toMatch(/^file-[0-9a-f-]{36}$/);

      const { statements } = (await get(paths.statements(customerId, accountId, '?index=1,2'))).json<{ statements: StatementEntry[] }>();
      // The file says its statement runs from January 1st (DTSTART) to February 20th (DTEND).
      expect(statements[0]).toMatchObject({ index: '1', id: `statement-${accountId}-20260101-20260220`, description: '01/01/2026 - 02/20/2026' });
      // The months around it have no transactions of the account.
      expect(statements[1]).toMatchObject({ index: '2', code: '16201' });

      const res = await get(paths.statement(customerId, accountId));
      expect(res.statusCode, res.body).toBe(200);
      const text = await pdfText(res.rawPayload);
      expect(text).toContain('Statement period 01/01/2026 - 02/20/2026');
      expect(text).toContain('Kafes sto kentro');
      expect(text).toContain('PAYROLL ? ACME');
      expect(text).toContain('Moskva Store');
      expect(text).toContain(upload.fileAssetId);
      // The file states the closing balance: the opening one is it less the period's transactions (1,100.00).
      expect(text).toContain('Opening balance -600.00 USD');
      expect(text).toContain('Closing balance 500.00 USD');

      const original = await get(paths.asset(customerId, upload.fileAssetId));
      expect(original.statusCode).toBe(200);
      expect(original.headers['content-disposition']).toBe(`attachment; filename="${upload.fileAssetId}.ofx"`);
      expect(original.body).toBe(file);

      // The same file again is the same asset; another customer's id names nothing here.
      expect((await t.uploadOk(customerId, file, { type: 'application/x-ofx' })).fileAssetId).toBe(upload.fileAssetId);
      const other = await t.customer();
      expect((await get(paths.asset(other, upload.fileAssetId))).statusCode).toBe(404);
      expect((await get(paths.asset(customerId, upload.fileAssetId), await partnerWithToken(t.ctx))).statusCode).toBe(404);
    });

    it("shows amounts with their currency's decimals: three for a KWD account", async () => {
      // The helper writes two decimals; the bank writes three.
      const kwd = ofxStatementFile(
        [
          {
            acctId: '555000111444',
            currency: 'KWD',
            balance: 500.12,
            transactions: [
              { fitId: 'K1', date: '20260205', amount: -12.34, name: 'KWIK MART' },
              { fitId: 'K2', date: '20260212', amount: 312.12, name: 'ALGHANIM PAYROLL' },
            ],
          },
        ],
        '20260220',
      )
        .replace('<TRNAMT>-12.34<', '<TRNAMT>-12.345<')
        .replace('<TRNAMT>312.12<', '<TRNAMT>312.125<')
        .replace('<BALAMT>500.12<', '<BALAMT>500.125<');
      const customerId = await t.customer();
      const upload = await t.uploadOk(customerId, kwd, { type: 'application/x-ofx' });
      const res = await get(paths.statement(customerId, String(upload.accounts[0].id)));
      expect(res.statusCode, res.body).toBe(200);
      const text = await pdfText(res.rawPayload);
      // The lines and the summary; the opening balance is the closing one less the period's transactions.
      const shown = ['KWIK MART -12.345 188.000', 'ALGHANIM PAYROLL 312.125 500.125', 'Closing balance 500.125 KWD', 'Opening balance 200.345 KWD'];
      expect(shown.filter((line) => !text.includes(line))).toEqual([]);
      // The balance history derives its days in fils too.
      const history = await t.ctx.runtime.database.kysely
        .selectFrom('account_balances')
        .select(['day', 'balance'])
        .where('account_id', '=', Number(upload.accounts[0].id))
        .where('day', 'in', ['2026-02-04', '2026-02-05', '2026-02-11'])
        .orderBy('day')
        .execute();
      expect(history.map((r) => [r.day, Number(r.balance)])).toEqual([
        ['2026-02-04', 200.345],
        ['2026-02-05', 188],
        ['2026-02-11', 188],
      ]);
    });

    it("takes the period from the transactions where the file states no dates, and never cuts a transaction out of the file's period", async () => {
      const withoutDates = ofxStatementFile(
        [
          {
            acctId: '555000111333',
            transactions: [
              { fitId: 'H1', date: '20260205', amount: -12, name: 'BOOKS' },
              { fitId: 'H2', date: '20260212', amount: -8, name: 'PAPER' },
            ],
          },
        ],
        '20260228',
      ).replace(/<DTSTART>\d+<DTEND>\d+/, '');
      const customerId = await t.customer();
      const plain = await t.uploadOk(customerId, withoutDates, { type: 'application/x-ofx' });
      const [first] = (await get(paths.statements(customerId, plain.accounts[0].id))).json<{ statements: StatementEntry[] }>().statements;
      expect(first).toMatchObject({ description: '02/05/2026 - 02/12/2026' });

      // A DTSTART after a transaction of the statement: the period starts at the transaction.
      const late = ofxStatementFile(
        [
          {
            acctId: '555000111444',
            transactions: [
              { fitId: 'J1', date: '20251220', amount: -3, name: 'EARLY' },
              { fitId: 'J2', date: '20260115', amount: -4, name: 'LATER' },
            ],
          },
        ],
        '20260131',
      );
      const other = await t.customer();
      const upload = await t.uploadOk(other, late, { type: 'application/x-ofx' });
      const [stated] = (await get(paths.statements(other, upload.accounts[0].id))).json<{ statements: StatementEntry[] }>().statements;
      expect(stated).toMatchObject({ description: '12/20/2025 - 01/31/2026' });
    });
  });
});
