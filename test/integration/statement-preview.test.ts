import { describe, expect, it } from 'vitest';
import { partnerWithToken } from '../helpers/context.js';
import { statementUploads, uploadStatement } from '../helpers/statement-uploads.js';

/** A bank export of twelve rows, two of them alike, with a running balance. */
const CHECKING = [
  'Date,Description,Amount,Balance',
  ...Array.from({ length: 12 }, (_, i) => {
    const day = String(i + 2).padStart(2, '0');
    return i === 5 ? `10/${day}/2026,"PAYROLL, ACME CORP",2450.33,${3000 + i}.00` : `10/${day}/2026,COFFEE ROASTERS #${i % 4},-4.50,${3000 + i}.00`;
  }),
  '',
].join('\n');

/** A card export of no bank's layout whose amounts are all positive: it cannot tell which way its signs go. */
const CARD = 'Date,Description,Card Number,Amount\n10/02/2026,BLUE BOTTLE COFFEE,****4417,6.25\n10/15/2026,CITY PARKING,****4417,3.00\n';

describe('previewing a statement file (preview=true)', () => {
  const files = statementUploads('2026-12-01T12:00:00Z');
  const preview = (customerId: string, file: string, query: Record<string, string> = {}, accept?: string) =>
    files.upload(customerId, file, { type: 'text/csv', query: { ...query, preview: 'true' }, ...(accept ? { accept } : {}) });

  /** Rows per table, but the request log (every call writes it): what a preview must leave as it was. */
  async function rowCounts(): Promise<Record<string, number>> {
    const db = files.ctx.runtime.database.kysely;
    const counts: Record<string, number> = {};
    for (const { name } of await db.introspection.getTables()) {
      if (name.startsWith('request_log') || name.startsWith('kysely_')) continue;
      const row = await db
        .selectFrom(name as 'accounts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      counts[name] = Number(row.n);
    }
    return counts;
  }

  it('answers what the upload stores, first ten rows as stored, and stores nothing itself', async () => {
    const customerId = await files.customer();
    const before = await rowCounts();
    expect(Object.keys(before)).toEqual(expect.arrayContaining(['institution_logins', 'accounts', 'transactions', 'aggregation_events', 'deliveries']));
    const res = await preview(customerId, CHECKING, { accountName: 'Everyday' });
    expect(res.statusCode, res.body).toBe(200);
    const seen = res.json();
    expect(seen).toMatchObject({
      preview: true,
      format: 'csv',
      accounts: [{ name: 'Everyday', type: 'checking', currency: 'USD' }],
      currencyFrom: 'default',
      transactionsRead: 12,
      problems: [],
    });
    expect(seen.transactions).toHaveLength(10);
    expect(seen.transactions[0]).toEqual({
      account: 0,
      transactionDate: Date.parse('2026-10-02T12:00:00Z') / 1000,
      postedDate: Date.parse('2026-10-02T12:00:00Z') / 1000,
      description: 'COFFEE ROASTERS #0',
      amount: -4.5,
      currency: 'USD',
    });
    expect(seen.transactions[5]).toMatchObject({ description: 'PAYROLL, ACME CORP', amount: 2450.33 });
    expect(await rowCounts()).toEqual(before);

    const stored = await files.uploadOk(customerId, Buffer.from(CHECKING), { type: 'text/csv', query: { accountName: 'Everyday' } });
    expect(stored.transactionsAdded).toBe(seen.transactionsRead);
    expect(stored.accounts.map((a: { name: string; type: string; currency: string }) => ({ name: a.name, type: a.type, currency: a.currency }))).toEqual(
      seen.accounts,
    );
    const kept = (await files.transactionsOf(customerId)).sort((a, b) => a.transactionDate - b.transactionDate).slice(0, 10);
    expect(kept.map((t) => [t.transactionDate, t.description, t.amount])).toEqual(
      seen.transactions.map((t: { transactionDate: number; description: string; amount: number }) => [t.transactionDate, t.description, t.amount]),
    );
    // Against what is stored now, a preview reads the same file the same way.
    expect((await preview(customerId, CHECKING, { accountName: 'Everyday' })).json().transactionsRead).toBe(12);
  });

  it("is the partner's own: another partner's customer is not found, and refusals are an upload's", async () => {
    const customerId = await files.customer();
    const other = await partnerWithToken(files.ctx);
    const res = await uploadStatement(files.ctx, other, customerId, CHECKING, { type: 'text/csv', query: { preview: 'true' } });
    expect([res.statusCode, res.json().code]).toEqual([404, '14001']);
    // A card export that cannot tell its signs is asked about, with the mapping to send back.
    const asked = await preview(customerId, CARD);
    expect(asked.statusCode, asked.body).toBe(422);
    expect(asked.json()).toMatchObject({
      code: '14112',
      message: expect.stringMatching(/negate: true if the file shows purchases and money out as positive amounts/),
      details: { ask: ['sign'], mapping: { date: 'Date', description: 'Description', amount: 'Amount', accountNumber: 'Card Number', headerRow: 0 } },
    });
    const mapping = JSON.stringify({ ...asked.json().details.mapping, negate: true });
    const answered = await preview(customerId, CARD, { mapping });
    expect(answered.json()).toMatchObject({ accounts: [{ type: 'creditCard' }], transactions: [{ amount: -6.25 }, { amount: -3 }] });
    // In XML, the preview is its own record.
    const xml = await preview(customerId, CARD, { mapping, currency: 'cad' }, 'application/xml');
    expect(xml.statusCode, xml.body).toBe(200);
    expect(xml.body).toMatch(/<statementPreview><preview>true<\/preview><format>csv<\/format><accounts><account><name>/);
    expect(xml.body).toContain('<currencyFrom>asked</currencyFrom>');
    expect(xml.body).toContain('<amount>-6.25</amount><currency>CAD</currency>');
  });
});
