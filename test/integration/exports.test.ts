import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_PAGE_SIZE } from '../../src/modules/exports/service.js';
import { plainText } from '../../src/modules/exports/writer.js';
import { DAY, linkProfile, nowOf, refresh, type TransactionJson } from '../helpers/aggregation.js';
import type { TestContext, TestPartner } from '../helpers/context.js';
import { partnerWithToken } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { dashboardSignIn } from '../helpers/dashboard.js';
import { openStatementContext, uploadedTransactions, uploadStatementOk } from '../helpers/statement-uploads.js';

const NOW = '2026-11-20T15:00:00Z';
// Descriptions a file must carry through: quotes, separators, line breaks, markup, non-ASCII, formula starts.
const HOSTILE = [
  { amount: -12.5, description: '=HYPERLINK("http://evil.example","click")' },
  { amount: 40, description: '+1 555 0100, "refund"; <b>bold</b> & co' },
  { amount: -0.99, description: '-negative start\nsecond line\r\nthird' },
  { amount: 7.25, description: '@SUM(A1:A2) Café 東京 😀' },
  { amount: -1500, description: "'=already neutralised" },
];

let ctx: TestContext;
let partner: TestPartner;
let other: TestPartner;
let customerId: string;
let accountIds: string[];
let euroAccountId: string;

function exportPath(format: string, options: { accountId?: string; fromDate?: string; toDate?: string; customer?: string } = {}): string {
  const query = new URLSearchParams({
    format,
    ...(options.fromDate ? { fromDate: options.fromDate } : {}),
    ...(options.toDate ? { toDate: options.toDate } : {}),
  });
  const base = `/aggregation/v1/customers/${options.customer ?? customerId}`;
  return `${base}${options.accountId ? `/accounts/${options.accountId}` : ''}/export?${query}`;
}

function exportAs(who: TestPartner, path: string, accept = '*/*') {
  return ctx.app.inject({ method: 'GET', url: path, headers: { ...who.headers, accept } });
}

/** Every posted transaction of the customer: the ones an export holds. */
async function postedTransactionsOf(id: string): Promise<TransactionJson[]> {
  return (await uploadedTransactions(ctx, partner, id)).filter((t) => t.status === 'active');
}

/** A transaction as a file carries it: its day, amount, description and memo (the one-line texts the formats write). */
function comparable(t: TransactionJson) {
  const description = plainText(String(t.description));
  const memo = plainText(String(t.memo ?? ''));
  const date = t.transactionDate ?? t.postedDate!;
  return `${new Date(date * 1000).toISOString().slice(0, 10)}|${t.amount}|${description}|${memo !== '' && memo !== description ? memo : ''}`;
}

beforeAll(async () => {
  ({ ctx, partner } = await openStatementContext(NOW));
  other = await partnerWithToken(ctx);
  customerId = await addCustomer(ctx, partner);
  const accounts = await linkProfile(ctx, partner, customerId, 'profile_03');
  await refresh(ctx, partner, customerId);
  accountIds = accounts.map((a) => a.id);
  const now = nowOf(ctx);
  for (const [i, t] of HOSTILE.entries()) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/accounts/${accountIds[0]}/transactions`,
      headers: partner.headers,
      payload: { ...t, transactionDate: now - (i + 1) * DAY },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  // A euro account of the same customer, from a statement file.
  const euro = await uploadStatementOk(
    ctx,
    partner,
    customerId,
    'Date,Description,Amount,Currency\n2026-11-02,Boulangerie Dupont,-4.80,EUR\n2026-11-03,Salaire,2100.00,EUR\n2026-11-04,"Loyer, novembre",-950.00,EUR\n',
    { type: 'text/csv', query: { accountName: 'Compte courant' } },
  );
  euroAccountId = euro.accounts[0].id;
}, 180_000);

afterAll(async () => {
  await ctx?.close();
});

describe('exports read back through the statement upload to the same transactions', () => {
  for (const [format, type] of [
    ['csv', 'text/csv'],
    ['ofx', 'application/x-ofx'],
    ['qif', 'application/qif'],
  ] as const) {
    it(`${format}: every posted transaction of every account, hostile descriptions and the euro account's currency included`, async () => {
      const res = await exportAs(partner, exportPath(format));
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="transactions-${customerId}.${format}"`);
      const original = await postedTransactionsOf(customerId);
      expect(original.length).toBeGreaterThan(HOSTILE.length + 3);

      const copy = await addCustomer(ctx, partner);
      // QIF names no currency: its accounts come back in the one the upload names (USD by default).
      const uploaded = await uploadStatementOk(ctx, partner, copy, res.rawPayload, { type });
      expect(uploaded.transactionsAdded).toBe(original.length);
      const readBack = await postedTransactionsOf(copy);
      expect(readBack.map(comparable).sort()).toEqual(original.map(comparable).sort());

      const accounts = (await ctx.app.inject({ method: 'GET', url: `/aggregation/v1/customers/${copy}/accounts`, headers: partner.headers })).json().accounts;
      expect(accounts).toHaveLength(accountIds.length + 1);
      const currencies = accounts.map((a: { currency: string }) => a.currency).sort();
      expect(currencies).toEqual(format === 'qif' ? accounts.map(() => 'USD') : [...accountIds.map(() => 'USD'), 'EUR'].sort());
    });
  }
});

describe('the answer', () => {
  it('is the format named, an attachment, whatever the Accept (text/csv too)', async () => {
    const csv = await exportAs(partner, exportPath('csv', { accountId: euroAccountId }), 'text/csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="transactions-${customerId}-${euroAccountId}.csv"`);
    expect(csv.body.split('\r\n').filter((l) => l !== '')).toHaveLength(4);
    expect(csv.body).toContain('"Compte courant"');
    expect(csv.body).toContain(',EUR,-950.00,"Loyer, novembre",');
    const ofx = await exportAs(partner, exportPath('ofx', { accountId: euroAccountId }), 'application/xml');
    expect(ofx.headers['content-type']).toBe('application/x-ofx');
    expect(ofx.body).toContain('<CURDEF>EUR</CURDEF>');
    const qif = await exportAs(partner, exportPath('QIF', { accountId: euroAccountId }));
    expect(qif.headers['content-type']).toBe('application/qif');
    expect(qif.body.startsWith('!Account\nNCompte courant\nTBank\n^\n!Type:Bank\nD11/02/2026\nT-4.80\nPBoulangerie Dupont\n^\n')).toBe(true);
  });

  it('holds the window asked for, as days or epoch seconds', async () => {
    const days = await exportAs(partner, exportPath('csv', { accountId: euroAccountId, fromDate: '2026-11-03', toDate: '2026-11-03' }));
    expect(
      days.body
        .split('\r\n')
        .filter((l) => l !== '')
        .map((l) => l.slice(0, 10)),
    ).toEqual(['Date,Poste', '2026-11-03']);
    expect(days.headers['content-disposition']).toContain('-2026-11-03-to-2026-11-03.csv"');
    const seconds = await exportAs(partner, exportPath('csv', { accountId: euroAccountId, fromDate: String(Date.parse('2026-11-03T00:00:00Z') / 1000) }));
    expect(seconds.body.split('\r\n').filter((l) => l !== '')).toHaveLength(3);
  });

  it(`writes an account of more than ${EXPORT_PAGE_SIZE} transactions whole, page after page`, async () => {
    const big = await addCustomer(ctx, partner);
    const rows = Array.from(
      { length: EXPORT_PAGE_SIZE * 2 + 7 },
      (_, i) => `2026-${String(1 + (i % 10)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')},Shop ${i},-${1 + (i % 50)}.25,USD`,
    );
    await uploadStatementOk(ctx, partner, big, `Date,Description,Amount,Currency\n${rows.join('\n')}\n`, { type: 'text/csv' });
    const res = await exportAs(partner, exportPath('qif', { customer: big }));
    expect(res.body.match(/^\^$/gm)).toHaveLength(EXPORT_PAGE_SIZE * 2 + 7 + 1);
    const shops = [...res.body.matchAll(/^PShop (\d+)$/gm)].map((m) => Number(m[1]));
    expect(new Set(shops).size).toBe(EXPORT_PAGE_SIZE * 2 + 7);
  });
});

describe('bad requests', () => {
  it('answers an unknown format 400 (14170) in JSON, also when Accept asks for the file', async () => {
    for (const accept of ['text/csv', 'application/json', '*/*']) {
      const res = await exportAs(partner, exportPath('xlsx'), accept);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ code: '14170' });
      expect(res.json().message).toContain('csv, ofx, qif');
    }
    const xml = await exportAs(partner, exportPath('xlsx'), 'application/xml');
    expect(xml.statusCode).toBe(400);
    expect(xml.body).toContain('<code>14170</code>');
  });

  it('answers dates that are not dates, or in the wrong order, 400 (14171) naming the date', async () => {
    for (const [options, name] of [
      [{ fromDate: 'yesterday' }, 'fromDate'],
      [{ toDate: '2026-02-30' }, 'toDate'],
      [{ fromDate: '2026-11-05', toDate: '2026-11-01' }, 'fromDate'],
    ] as const) {
      const res = await exportAs(partner, exportPath('csv', options));
      expect(res.statusCode, JSON.stringify(options)).toBe(400);
      expect(res.json()).toMatchObject({ code: '14171' });
      expect(res.json().message).toContain(name);
    }
  });

  it('answers a missing format 400 (10005) and another partner 404, whatever the format', async () => {
    const missing = await exportAs(partner, `/aggregation/v1/customers/${customerId}/export`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: '10005' });
    for (const path of [exportPath('csv'), exportPath('xlsx'), exportPath('ofx', { accountId: accountIds[0] })]) {
      const res = await exportAs(other, path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toMatchObject({ code: '14001' });
    }
    const otherCustomer = await addCustomer(ctx, partner);
    const res = await exportAs(partner, exportPath('csv', { customer: otherCustomer, accountId: accountIds[0] }));
    expect(res.statusCode).toBe(404);
  });
});

describe('the dashboard’s export routes', () => {
  it('serve the signed-in partner the same file as the API, and another partner’s customer as not found', async () => {
    const mine = await dashboardSignIn(ctx, partner.partnerId, partner.partnerSecret);
    const theirs = await dashboardSignIn(ctx, other.partnerId, other.partnerSecret);
    const path = `/dashboard/api/customers/${customerId}/accounts/${euroAccountId}/export?format=csv`;
    const res = await mine.call('GET', path, undefined, { accept: 'text/html,*/*' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="transactions-${customerId}-${euroAccountId}.csv"`);
    expect(res.body).toBe((await exportAs(partner, exportPath('csv', { accountId: euroAccountId }))).body);
    const all = await mine.call('GET', `/dashboard/api/customers/${customerId}/export?format=qif`);
    expect(all.statusCode).toBe(200);
    expect(all.body.match(/^!Account$/gm)).toHaveLength(accountIds.length + 1);

    expect((await theirs.call('GET', path)).statusCode).toBe(404);
    expect((await theirs.call('GET', `/dashboard/api/customers/${customerId}/export?format=csv`)).statusCode).toBe(404);
    expect((await mine.call('GET', `/dashboard/api/customers/${customerId}/export?format=pdf`)).json()).toMatchObject({ code: '14170' });
    const signedOut = await ctx.app.inject({ method: 'GET', url: path, headers: { accept: 'application/json' } });
    expect(signedOut.statusCode).toBe(401);
  });
});

describe('generated transactions read back through the statement upload (a property per format)', () => {
  // Texts a file must carry through, as the unit property test generates them.
  const PIECES = ['"', "'", ',', ';', '\n', '\r\n', '\t', '<', '>', '&', ']]>', '=', '+', '-', '@', '^', '!', 'é', '東京', '😀', ' ', 'x', '12'];
  const hostile = fc
    .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ minLength: 1, maxLength: 5 })), { minLength: 1, maxLength: 10 })
    .map((parts) => parts.join('').slice(0, 80))
    .filter((text) => plainText(text) !== '');
  const batches = fc.array(
    fc.record({ description: hostile, cents: fc.integer({ min: -9_999_999, max: 9_999_999 }).filter((c) => c !== 0), euro: fc.boolean() }),
    { minLength: 1, maxLength: 6 },
  );
  // Each run's transactions on a day of their own, before the test bank's history (within the 400 days postedTransactionsOf reads), and its export that day alone.
  let day = Date.parse('2025-11-01T00:00:00Z') / 1000;

  for (const [format, type] of [
    ['csv', 'text/csv'],
    ['ofx', 'application/x-ofx'],
    ['qif', 'application/qif'],
  ] as const) {
    it(`${format}: descriptions of quotes, separators, line breaks, markup, non-ASCII and formula starts, both signs, USD and EUR`, async () => {
      await fc.assert(
        fc.asyncProperty(batches, async (batch) => {
          day += DAY;
          for (const t of batch) {
            const res = await ctx.app.inject({
              method: 'POST',
              url: `/aggregation/v1/customers/${customerId}/accounts/${t.euro ? euroAccountId : accountIds[0]}/transactions`,
              headers: partner.headers,
              payload: { amount: t.cents / 100, description: t.description, transactionDate: day + 3600 },
            });
            expect(res.statusCode, res.body).toBe(201);
          }
          const iso = new Date(day * 1000).toISOString().slice(0, 10);
          const file = await exportAs(partner, exportPath(format, { fromDate: iso, toDate: iso }));
          expect(file.statusCode).toBe(200);
          const copy = await addCustomer(ctx, partner);
          await uploadStatementOk(ctx, partner, copy, file.rawPayload, { type });
          const original = (await postedTransactionsOf(customerId)).filter(
            (t) => (t.transactionDate ?? t.postedDate!) >= day && (t.transactionDate ?? t.postedDate!) < day + DAY,
          );
          expect(original).toHaveLength(batch.length);
          expect((await postedTransactionsOf(copy)).map(comparable).sort()).toEqual(original.map(comparable).sort());
        }),
        { numRuns: 4 },
      );
    });
  }
});
