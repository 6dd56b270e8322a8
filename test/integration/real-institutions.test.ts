import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { addOfxInstitution } from '../../src/modules/institutions/service.js';
import { SIMPLEFIN_INSTITUTION_ID } from '../../src/connectors/simplefin/index.js';
import { allTransactions, DAY, nowOf, refresh, type AccountJson } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { startOfxServer, type OfxServer } from '../helpers/ofx-server.js';
import { demoAccounts, startSimplefinBridge, type SimplefinBridge } from '../helpers/simplefin-bridge.js';

describe('real institutions through the API: OFX Direct Connect and SimpleFIN Bridge', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let ofx: OfxServer;
  let bridge: SimplefinBridge;
  let ofxInstitution: number;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx, 'production');
    const now = nowOf(ctx);
    ofx = await startOfxServer({
      format: 'sgml',
      users: [
        {
          userId: 'alice',
          password: 'secret-1',
          accounts: [
            {
              kind: 'bank',
              bankId: '121000358',
              acctId: '000123456',
              acctType: 'CHECKING',
              balance: 1520.75,
              available: 1490.75,
              transactions: [
                { fitId: 'F1', type: 'DIRECTDEP', posted: now - 20 * DAY, amount: 2500, name: 'ACME CORP PAYROLL' },
                { fitId: 'F2', type: 'POS', posted: now - 3 * DAY, amount: -4.75, name: 'STARBUCKS 1234' },
              ],
            },
            {
              kind: 'creditCard',
              acctId: '4111XXXXXXXX1111',
              balance: -250.5,
              transactions: [{ fitId: 'F1', type: 'DEBIT', posted: now - 5 * DAY, amount: -250.5, name: 'DELTA AIR LINES' }],
            },
          ],
        },
      ],
    });
    ofxInstitution = await addOfxInstitution(
      ctx.runtime.database,
      'sandbox',
      { name: 'Harbor Test Credit Union', url: ofx.url, fid: '1234', org: 'HTCU' },
      now,
    );
    bridge = await startSimplefinBridge({ now: () => nowOf(ctx) });
  });
  afterAll(async () => {
    await ofx?.close();
    await bridge?.close();
    await ctx?.close();
  });

  const addall = (customerId: string, institutionId: number, credentials: { id: string; value: string }[]) =>
    ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/institutions/${institutionId}/accounts/addall`,
      headers: partner.headers,
      payload: { credentials },
    });

  it('links an OFX account with user id and password, reads its transactions, and refreshes without duplicates', async () => {
    const customerId = await addCustomer(ctx, partner, { type: 'active' });
    const res = await addall(customerId, ofxInstitution, [
      { id: `${ofxInstitution}001`, value: 'alice' },
      { id: `${ofxInstitution}002`, value: 'secret-1' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const accounts = res.json<{ accounts: AccountJson[] }>().accounts;
    expect(accounts.map((a) => [a.type, a.balance]).sort()).toEqual([
      ['checking', 1520.75],
      ['creditCard', -250.5],
    ]);
    await refresh(ctx, partner, customerId);
    const now = nowOf(ctx);
    const first = await allTransactions(ctx, partner, customerId, { fromDate: now - 60 * DAY, toDate: now });
    expect(first.map((t) => [t.amount, t.description]).sort()).toEqual([
      [-250.5, 'DELTA AIR LINES'],
      [-4.75, 'STARBUCKS 1234'],
      [2500, 'ACME CORP PAYROLL'],
    ]);
    // The same FITID at two accounts is two transactions; another refresh adds nothing that was there already.
    await refresh(ctx, partner, customerId);
    const again = await allTransactions(ctx, partner, customerId, { fromDate: now - 60 * DAY, toDate: now });
    expect(again.map((t) => t.id).sort()).toEqual(first.map((t) => t.id).sort());
    expect(ofx.requests.length).toBeGreaterThan(0);
  });

  it('answers a wrong OFX password as invalid credentials, and keeps testing customers at test institutions', async () => {
    const customerId = await addCustomer(ctx, partner, { type: 'active' });
    const wrong = await addall(customerId, ofxInstitution, [
      { id: `${ofxInstitution}001`, value: 'alice' },
      { id: `${ofxInstitution}002`, value: 'nope' },
    ]);
    expect(wrong.statusCode).toBeGreaterThanOrEqual(400);
    expect(wrong.statusCode).toBeLessThan(500);
    expect(wrong.body).toMatch(/user ID or password is incorrect/);
    const testing = await addCustomer(ctx, partner, { type: 'testing' });
    const refused = await addall(testing, ofxInstitution, [
      { id: `${ofxInstitution}001`, value: 'alice' },
      { id: `${ofxInstitution}002`, value: 'secret-1' },
    ]);
    expect(refused.statusCode).toBe(403);
  });

  it('links SimpleFIN accounts with a setup token, refuses it a second time, and never stores it', async () => {
    const customerId = await addCustomer(ctx, partner, { type: 'active' });
    const token = bridge.createSetupToken({ accounts: demoAccounts(nowOf(ctx)) });
    const res = await addall(customerId, SIMPLEFIN_INSTITUTION_ID, [{ id: `${SIMPLEFIN_INSTITUTION_ID}001`, value: token }]);
    expect(res.statusCode, res.body).toBe(200);
    const accounts = res.json<{ accounts: AccountJson[] }>().accounts;
    expect(accounts.map((a) => a.type).sort()).toEqual(['checking', 'creditCard', 'savings']);
    // Each account names the bank that holds it, in JSON and XML.
    const named = (type: string) => (accounts.find((a) => a.type === type) as { detail?: { institutionName?: string } }).detail?.institutionName;
    expect([named('checking'), named('savings'), named('creditCard')]).toEqual(['First Example Bank', 'First Example Bank', 'Second Example Card Co']);
    const xml = await ctx.app.inject({ url: `/aggregation/v1/customers/${customerId}/accounts`, headers: { ...partner.headers, accept: 'application/xml' } });
    expect(xml.body).toContain('<institutionName>Second Example Card Co</institutionName>');
    await refresh(ctx, partner, customerId);
    const now = nowOf(ctx);
    const transactions = await allTransactions(ctx, partner, customerId, { fromDate: now - 60 * DAY, toDate: now });
    expect(transactions.map((t) => t.description)).toEqual(expect.arrayContaining(['ACME CORP PAYROLL', 'DELTA AIR LINES', 'INTEREST PAID']));
    // Used once: the same token again is refused as invalid credentials.
    const reuse = await addall(await addCustomer(ctx, partner, { type: 'active' }), SIMPLEFIN_INSTITUTION_ID, [
      { id: `${SIMPLEFIN_INSTITUTION_ID}001`, value: token },
    ]);
    expect(reuse.statusCode).toBeGreaterThanOrEqual(400);
    expect(reuse.body).toMatch(/already used or is not valid/);
    // Nowhere in the database, in any table.
    const db = ctx.runtime.database.kysely;
    const tables =
      ctx.runtime.database.dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
        : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db);
    expect(tables.rows.length).toBeGreaterThan(10);
    for (const { name } of tables.rows) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
      expect(JSON.stringify(rows.rows).includes(token), name).toBe(false);
    }
  });
});
