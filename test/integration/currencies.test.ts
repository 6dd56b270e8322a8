import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOfxInstitution } from '../../src/modules/institutions/service.js';
import { SIMPLEFIN_INSTITUTION_ID } from '../../src/connectors/simplefin/index.js';
import { type AccountJson, DAY, nowOf } from '../helpers/aggregation.js';
import { partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { startOfxServer, type OfxServer } from '../helpers/ofx-server.js';
import { type SimplefinBridge, startSimplefinBridge } from '../helpers/simplefin-bridge.js';
import { openStatementContext, uploadStatement } from '../helpers/statement-uploads.js';

const LONG = 'E'.repeat(3000);

/** An OFX 1.02 bank statement file with the given CURDEF and two transactions. */
function ofxFile(acctId: string, curdef: string): string {
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
<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20261130</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
<STMTRS><CURDEF>${curdef}
<BANKACCTFROM><BANKID>121000248<ACCTID>${acctId}<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20261101<DTEND>20261130
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261103<TRNAMT>-42.17<FITID>C1<NAME>GROCER</STMTTRN>
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20261115<TRNAMT>1500.00<FITID>C2<NAME>PAYROLL</STMTTRN>
</BANKTRANLIST>
<LEDGERBAL><BALAMT>-250.50<DTASOF>20261130</LEDGERBAL>
</STMTRS></STMTTRNRS></BANKMSGSRSV1>
</OFX>
`;
}

describe('currencies of every source are ISO 4217 codes', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let production: TestPartner;
  let ofx: OfxServer;
  let bridge: SimplefinBridge;
  let ofxInstitution: number;

  beforeAll(async () => {
    ({ ctx, partner } = await openStatementContext('2026-12-01T12:00:00Z'));
    production = await partnerWithToken(ctx, 'production');
    const now = nowOf(ctx);
    const transactions = [{ fitId: 'F1', type: 'POS', posted: now - 3 * DAY, amount: -4.75, name: 'COFFEE' }];
    ofx = await startOfxServer({
      format: 'sgml',
      users: [
        {
          userId: 'long',
          password: 'pw-1',
          accounts: [{ kind: 'bank', bankId: '121000358', acctId: '111', acctType: 'CHECKING', balance: 10.5, currency: LONG, transactions }],
        },
        {
          userId: 'lower',
          password: 'pw-2',
          accounts: [{ kind: 'creditCard', acctId: '4111XXXXXXXX2222', balance: -99.1, currency: 'cad', transactions }],
        },
      ],
    });
    ofxInstitution = await addOfxInstitution(
      ctx.runtime.database,
      'sandbox',
      { name: 'Currency Test Credit Union', url: ofx.url, fid: '77', org: 'CTCU' },
      now,
    );
    bridge = await startSimplefinBridge({ now: () => nowOf(ctx) });
  }, 120_000);
  afterAll(async () => {
    await ofx?.close();
    await bridge?.close();
    await ctx?.close();
  });

  const upload = (customerId: string, file: string, type: string, query?: Record<string, string>) =>
    uploadStatement(ctx, partner, customerId, file, { type, query });
  const storedCurrencies = async (customerId: string) =>
    (await ctx.runtime.database.kysely.selectFrom('accounts').select('currency').where('customer_id', '=', Number(customerId)).orderBy('id').execute()).map(
      (r) => r.currency,
    );
  const servedCurrencies = async (who: TestPartner, customerId: string) => {
    const res = await ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}/accounts`, headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ accounts: AccountJson[] }>().accounts.map((a) => (a as { currency?: string }).currency);
  };
  const addall = (customerId: string, institutionId: number, credentials: { id: string; value: string }[]) =>
    ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/institutions/${institutionId}/accounts/addall`,
      headers: production.headers,
      payload: { credentials },
    });

  it('reads an uploaded OFX file with a 3,000-character CURDEF: amounts kept under XXX, the problem named, the text stored nowhere', async () => {
    const customerId = await addCustomer(ctx, partner);
    const res = await upload(customerId, ofxFile('9001', LONG), 'application/x-ofx');
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ transactionsAdded: 2, accounts: [{ currency: 'XXX', balance: -250.5 }] });
    expect(body.problems).toEqual([
      {
        message:
          'The currency (CURDEF) of account 9001 is a currency text of 3,000 characters, not an ISO 4217 code: its amounts were kept without a currency (XXX)',
      },
    ]);
    expect(await storedCurrencies(customerId)).toEqual(['XXX']);
    expect(await servedCurrencies(partner, customerId)).toEqual(['XXX']);
    // A corrected file of the same account gives it its currency.
    const fixed = await upload(customerId, ofxFile('9001', 'eur'), 'application/x-ofx');
    expect([fixed.statusCode, fixed.json().accounts[0].currency, fixed.json().problems]).toEqual([200, 'EUR', []]);
    expect(await storedCurrencies(customerId)).toEqual(['EUR']);
  });

  it('takes a CSV upload’s currency option in any letter case and refuses one that is not an ISO 4217 code with 400 10010', async () => {
    const customerId = await addCustomer(ctx, partner);
    const csv = 'Date,Description,Amount\n11/13/2026,COFFEE,-4.50\n11/14/2026,REFUND,2.00\n';
    for (const currency of ['ABC', 'ZZZ', 'HRK']) {
      const res = await upload(customerId, csv, 'text/csv', { currency });
      expect([res.statusCode, res.json().code], `${currency}: ${res.body}`).toEqual([400, '10010']);
      expect(res.json().message).toMatch(/currency.*ISO 4217/);
    }
    expect(await storedCurrencies(customerId)).toEqual([]);
    const ok = await upload(customerId, csv, 'text/csv', { currency: 'chf' });
    expect([ok.statusCode, ok.json().accounts[0].currency]).toEqual([200, 'CHF']);
    expect(await storedCurrencies(customerId)).toEqual(['CHF']);
  });

  it('keeps CSV amounts that name a text that is no currency code under XXX and names them in problems', async () => {
    const customerId = await addCustomer(ctx, partner);
    const res = await upload(customerId, 'Date,Description,Amount\n11/13/2026,COFFEE,-4.50 QQQ\n11/14/2026,REFUND,2.00 QQQ\n', 'text/csv');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      transactionsAdded: 2,
      accounts: [{ currency: 'XXX' }],
      problems: [{ message: 'The amounts name "QQQ", which is not an ISO 4217 currency code: they were kept without a currency (XXX).' }],
    });
    expect(await storedCurrencies(customerId)).toEqual(['XXX']);
  });

  it('links OFX Direct Connect accounts whose CURDEF is 3,000 characters under XXX, and a lower-case one as its code', async () => {
    const first = await addCustomer(ctx, production, { type: 'active' });
    const linked = await addall(first, ofxInstitution, [
      { id: `${ofxInstitution}001`, value: 'long' },
      { id: `${ofxInstitution}002`, value: 'pw-1' },
    ]);
    expect(linked.statusCode, linked.body.slice(0, 300)).toBe(200);
    expect(linked.json().accounts.map((a: { currency: string }) => a.currency)).toEqual(['XXX']);
    expect(await storedCurrencies(first)).toEqual(['XXX']);
    expect(await servedCurrencies(production, first)).toEqual(['XXX']);

    const second = await addCustomer(ctx, production, { type: 'active' });
    const lower = await addall(second, ofxInstitution, [
      { id: `${ofxInstitution}001`, value: 'lower' },
      { id: `${ofxInstitution}002`, value: 'pw-2' },
    ]);
    expect(lower.statusCode, lower.body.slice(0, 300)).toBe(200);
    expect(await storedCurrencies(second)).toEqual(['CAD']);
  });

  it('links SimpleFIN accounts whose currency is a custom currency’s URL or no code under XXX, keeping the accounts and amounts', async () => {
    const customerId = await addCustomer(ctx, production, { type: 'active' });
    const now = nowOf(ctx);
    const token = bridge.createSetupToken({
      accounts: [
        { id: 'ACT-miles', name: 'Flight Miles', currency: 'https://www.example.com/flight-miles', balance: '12000', 'balance-date': now - 60 },
        { id: 'ACT-junk', name: 'Everyday Checking', currency: LONG, balance: '-20.25', 'balance-date': now - 60 },
        { id: 'ACT-eur', name: 'Euro Savings', currency: 'eur', balance: '100.00', 'balance-date': now - 60 },
        { id: 'ACT-abc', name: 'Rewards Savings', currency: 'ABC', balance: '5.00', 'balance-date': now - 60 },
      ],
    });
    const res = await addall(customerId, SIMPLEFIN_INSTITUTION_ID, [{ id: `${SIMPLEFIN_INSTITUTION_ID}001`, value: token }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const accounts = res.json<{ accounts: (AccountJson & { currency: string; name: string })[] }>().accounts;
    expect(accounts.map((a) => [a.name, a.currency, a.balance]).sort()).toEqual([
      ['Euro Savings', 'EUR', 100],
      ['Everyday Checking', 'XXX', -20.25],
      ['Flight Miles', 'XXX', 12000],
      ['Rewards Savings', 'XXX', 5],
    ]);
    expect((await storedCurrencies(customerId)).sort()).toEqual(['EUR', 'XXX', 'XXX', 'XXX']);
  });
});
