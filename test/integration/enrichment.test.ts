import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categorize } from '../../src/connectors/categorize.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';

const PATH = '/data-enrichment/transactions';

const transaction = (n: number, description: string, amount: number, extra: object = {}) => ({
  externalCustomerId: 'c8a1f3',
  externalAccountId: '9b2e77',
  accountType: 'checking',
  externalTransactionId: `T${n}`,
  transactionTimestamp: '2026-01-12T11:00:00Z',
  description,
  amount,
  ...extra,
});

describe('transaction data enrichment', () => {
  let ctx: TestContext;
  let partner: TestPartner;

  beforeAll(async () => {
    ctx = await createTestContext();
    partner = await partnerWithToken(ctx);
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
  });

  const post = (payload: object, accept = 'application/json', headers: Record<string, string> = partner.headers) =>
    ctx.app.inject({ method: 'POST', url: PATH, headers: { ...headers, accept, 'content-type': 'application/json' }, payload });

  it('passes each transaction back with the category and payee stored transactions get, in order, in JSON and XML', async () => {
    const given = [
      transaction(1, 'STARBUCKS STORE 06565 LITTLETON CO 01/12', -13.26, { type: 'DEBIT', additionalDetails: { key1: 'value1' }, memo: 'debit' }),
      transaction(2, 'CHECKCARD 01/12 MCDONALDS F10649 CLINTON SC', -37.52, { type: 'POS' }),
      transaction(3, 'ACME CORP PAYROLL DIR DEP', 2400, {}),
    ];
    const res = await post({ transactions: given });
    expect(res.statusCode, res.body).toBe(200);
    const answered = res.json<{ transactions: Array<Record<string, unknown>> }>().transactions;
    expect(answered.map((t) => t.externalTransactionId)).toEqual(['T1', 'T2', 'T3']);
    const types = ['debit', 'pointOfSale', 'credit'] as const;
    answered.forEach((t, i) => {
      const { normalizedPayeeName, category } = categorize(given[i]!.description, (given[i] as { memo?: string }).memo, types[i]!);
      expect(t).toEqual({ ...given[i], transactionCategory: category, entities: [{ name: normalizedPayeeName, category }] });
    });
    expect(answered[0]!.entities).toEqual([{ name: 'Starbucks', category: expect.any(String) }]);

    const xml = await post({ transactions: given.slice(0, 1) }, 'application/xml');
    expect(xml.statusCode, xml.body).toBe(200);
    const parsed = new XMLParser({ parseTagValue: false, isArray: (name) => ['transactions', 'entities'].includes(name) }).parse(xml.body);
    expect(parsed.root.transactions[0]).toMatchObject({ externalTransactionId: 'T1', transactionCategory: answered[0]!.transactionCategory });
    expect(parsed.root.transactions[0].entities[0].name).toBe('Starbucks');
  });

  it(`refuses an empty list, more than 1000 transactions, a missing or oversized field with 400`, async () => {
    const one = transaction(1, 'STARBUCKS', -1);
    const cases: Array<[object, string]> = [
      [{ transactions: [] }, '10010'],
      [{ transactions: Array.from({ length: 1001 }, () => one) }, '10010'],
      [{}, '10005'],
      [{ transactions: [{ ...one, description: undefined }] }, '10005'],
      [{ transactions: [{ ...one, description: 'x'.repeat(1025) }] }, '10010'],
      [{ transactions: [{ ...one, amount: 'ten' }] }, '10010'],
    ];
    for (const [payload, code] of cases) {
      const res = await post(payload);
      expect([res.statusCode, res.json<{ code: string }>().code], res.body.slice(0, 200)).toEqual([400, code]);
    }
    expect((await post({ transactions: Array.from({ length: 1000 }, (_, i) => transaction(i, 'STARBUCKS', -1)) })).statusCode).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const { 'service-app-token': _token, ...keyOnly } = partner.headers as Record<string, string>;
    const res = await post({ transactions: [transaction(1, 'STARBUCKS', -1)] }, 'application/json', keyOnly);
    expect(res.statusCode).toBe(401);
  });
});
