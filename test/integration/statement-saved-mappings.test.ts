import { describe, expect, it } from 'vitest';
import { partnerWithToken, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { statementUploads, uploadedTransactions, uploadStatement } from '../helpers/statement-uploads.js';

/** A layout no bank's and no generic one: its columns' names are known to no detection. */
const HEADER = 'When,Who,How much,Left';
const first = `${HEADER}\n03/11/2026,Corner Bakery,-4.20,995.80\n05/11/2026,Northwind Payroll,2450.00,3445.80\n`;
// The same layout in other spacing and case, with other rows.
const second = ' when , WHO,How Much,left\n07/11/2026,City Parking,-12.00,3433.80\n09/11/2026,Book Nook,-18.50,3415.30\n';
const third = `${HEADER}\n12/11/2026,Tea House,-3.10,3412.20\n`;
const MAPPING = { date: 'When', description: 'Who', amount: 'How much', balance: 'Left', dateOrder: 'dmy' };

const csv = (query?: Record<string, string>) => ({ type: 'text/csv', ...(query ? { query } : {}) });
const withMapping = (mapping: object) => csv({ mapping: JSON.stringify(mapping) });

describe("a partner's saved CSV column mappings", () => {
  const files = statementUploads('2026-12-01T12:00:00Z');
  const { customer, upload, uploadOk, transactionsOf } = files;
  const now = () => Math.floor(files.ctx.clock.now() / 1000);
  const later = () => files.ctx.clock.advance(60_000);
  const list = async (who: TestPartner = files.partner, accept = 'application/json') => {
    const res = await files.ctx.app.inject({ url: '/aggregation/v1/statement-mappings', headers: { ...who.headers, accept } });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const mappings = async (who?: TestPartner) =>
    (await list(who)).json<{ mappings: { fingerprint: string; mapping: string; updatedDate: number; lastUsedDate: number }[] }>().mappings;
  const forget = (fingerprint: string) =>
    files.ctx.app.inject({ method: 'DELETE', url: `/aggregation/v1/statement-mappings/${fingerprint}`, headers: files.partner.headers });

  it('saves the mapping an upload gives, reads the next file of that layout with it, and not files of another layout or partner', async () => {
    const customerId = await customer();
    const unknown = await upload(customerId, first, csv());
    expect([unknown.statusCode, unknown.json().code]).toEqual([422, '14112']);

    const savedAt = now();
    const given = await uploadOk(customerId, first, withMapping(MAPPING));
    expect(given).toMatchObject({ transactionsAdded: 2, problems: [], mapping: { source: 'given', savedDate: savedAt } });
    const fingerprint: string = given.mapping.fingerprint;
    expect(fingerprint).toMatch(/^header\.4\.comma\./);
    expect(await mappings()).toEqual([
      { fingerprint, mapping: JSON.stringify({ ...MAPPING, headerRow: 0 }), createdDate: savedAt, updatedDate: savedAt, lastUsedDate: savedAt },
    ]);

    later();
    const reused = await uploadOk(customerId, second, csv());
    expect(reused).toMatchObject({ transactionsAdded: 2, problems: [], mapping: { source: 'saved', fingerprint, savedDate: savedAt } });
    // Read day-first, as the saved mapping says, into the account the first upload made.
    const stored = await transactionsOf(customerId);
    expect(stored.map((t) => [t.description, t.amount, new Date(t.transactionDate * 1000).toISOString().slice(0, 10)])).toEqual(
      expect.arrayContaining([
        ['City Parking', -12, '2026-11-07'],
        ['Book Nook', -18.5, '2026-11-09'],
      ]),
    );
    expect(new Set(stored.map((t) => t.accountId)).size).toBe(1);
    expect((await mappings())[0]).toMatchObject({ fingerprint, updatedDate: savedAt, lastUsedDate: now() });

    const otherHeader = await upload(customerId, 'When,Who,How much\n14/11/2026,Florist,-9.99\n', csv());
    expect([otherHeader.statusCode, otherHeader.json().code]).toEqual([422, '14112']);

    const other = await partnerWithToken(files.ctx);
    const theirs = await uploadStatement(files.ctx, other, await addCustomer(files.ctx, other), second, csv());
    expect([theirs.statusCode, theirs.json().code]).toEqual([422, '14112']);
    expect(await mappings(other)).toEqual([]);
  });

  it('replaces the saved mapping with the one an upload gives, and forgets it when asked', async () => {
    const customerId = await customer();
    await uploadOk(customerId, first, withMapping(MAPPING));
    later();
    const replacedAt = now();
    const corrected = await uploadOk(customerId, second, withMapping({ ...MAPPING, negate: true }));
    expect(corrected.mapping).toMatchObject({ source: 'given', savedDate: replacedAt });
    const [saved] = await mappings();
    expect(JSON.parse(saved!.mapping)).toMatchObject({ negate: true });

    later();
    const reused = await uploadOk(customerId, third, csv());
    expect(reused.mapping).toMatchObject({ source: 'saved', savedDate: replacedAt });
    expect((await transactionsOf(customerId)).find((t) => t.description === 'Tea House')?.amount).toBe(3.1);
    expect((await list(files.partner, 'application/xml')).body).toMatch(/^<\?xml[^>]*\?><statementMappings><statementMapping><fingerprint>header\.4\.comma\./);

    expect((await forget(saved!.fingerprint)).statusCode).toBe(204);
    const forgotten = await upload(customerId, third, csv());
    expect([forgotten.statusCode, forgotten.json().code]).toEqual([422, '14112']);
    const again = await forget(saved!.fingerprint);
    expect([again.statusCode, again.json().code]).toEqual([404, '14001']);
  });

  it('keeps at most 100 per partner, forgetting the least recently used', async () => {
    const { ctx } = files;
    const partner = await partnerWithToken(ctx);
    const customerId = await addCustomer(ctx, partner);
    const uploadAs = async (file: string, options: ReturnType<typeof csv>) => {
      const res = await uploadStatement(ctx, partner, customerId, file, options);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const saved = await uploadAs(first, withMapping(MAPPING));
    const start = now();
    // 99 more, each used after it (a second apart): this layout's is the least recently used.
    await ctx.runtime.database.kysely
      .insertInto('statement_mappings')
      .values(
        Array.from({ length: 99 }, (_, i) => ({
          partner_id: partner.partnerId,
          fingerprint: `header.2.comma.filler${String(i).padStart(2, '0')}`,
          mapping: JSON.stringify({ date: 0, description: 1, amount: 2 }),
          created_at: start + 1 + i,
          updated_at: start + 1 + i,
          last_used_at: start + 1 + i,
        })),
      )
      .execute();
    // Past the fillers' times: used again, it is the most recently used, and the first filler the least.
    ctx.clock.advance(100_000);
    expect((await uploadAs(second, csv())).mapping.source).toBe('saved');
    later();
    const another = await uploadAs(
      'Day;Text;Sum\n02.11.2026;Kiosk;-1,50\n',
      csv({ mapping: JSON.stringify({ date: 'Day', description: 'Text', amount: 'Sum' }), currency: 'EUR' }),
    );
    expect(another.mapping.source).toBe('given');

    const kept = (await mappings(partner)).map((m) => m.fingerprint);
    expect(kept).toHaveLength(100);
    expect(kept.slice(0, 2)).toEqual([another.mapping.fingerprint, saved.mapping.fingerprint]);
    expect(kept).not.toContain('header.2.comma.filler00');
    expect(kept).toContain('header.2.comma.filler01');
    expect(await uploadedTransactions(ctx, partner, customerId)).toHaveLength(5);
  });
});
