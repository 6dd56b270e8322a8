import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/platform/secrets.js';
import { linkProfile, nowOf, type AccountJson } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, renewToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';

const DAY = 86_400;
type Res = { statusCode: number; body: string; json: <T = any>() => T };

const iso = (epoch: number) => new Date(epoch * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Third-party access keys: a grant of product reads on one customer's accounts to another partner, its key, its end. */
describe('third-party access keys', () => {
  let ctx: TestContext;
  /** The recipient: owns the customer and grants access. */
  let owner: TestPartner;
  /** The third party the access is granted to. */
  let reader: TestPartner;
  /** A partner granted nothing. */
  let outsider: TestPartner;
  let customerId: string;
  let checking: AccountJson;
  let savings: AccountJson;

  beforeAll(async () => {
    ctx = await createTestContext();
    owner = await partnerWithToken(ctx);
    reader = await partnerWithToken(ctx);
    outsider = await partnerWithToken(ctx);
    customerId = await addCustomer(ctx, owner);
    const accounts = await linkProfile(ctx, owner, customerId, 'profile_01');
    checking = accounts.find((a) => a.type === 'checking')!;
    savings = accounts.find((a) => a.type === 'savings')!;
  }, 60_000);
  afterAll(async () => ctx?.close());

  const call = (who: TestPartner, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, extra: Record<string, string> = {}): Promise<Res> =>
    ctx.app.inject({ method, url, headers: { ...who.headers, ...extra }, ...(payload ? { payload } : {}) }) as Promise<Res>;
  const codeOf = (res: Res) => [res.statusCode, String(res.json<{ code: string }>().code)];
  const account = (a: AccountJson, path: string) => `/aggregation/v1/customers/${customerId}/accounts/${a.id}${path}`;
  const PRODUCT_PATHS = {
    moneyTransferDetails: '/details',
    availableBalance: '/availableBalance',
    availableBalanceLive: '/availableBalance/live',
    accountOwner: '/owner',
  } as const;
  const grant = (product: string, a: AccountJson, extra: Record<string, unknown> = {}, from = nowOf(ctx) - 60, to = nowOf(ctx) + 30 * DAY) => ({
    product,
    accountId: a.id,
    accessPeriod: { type: 'timeframe', startTime: iso(from), endTime: iso(to) },
    ...extra,
  });
  const body = (products: object[], extra: Record<string, unknown> = {}) => ({
    customerId,
    partnerId: owner.partnerId,
    thirdPartyPartnerId: reader.partnerId,
    products,
    ...extra,
  });
  const generate = (products: object[], extra: Record<string, unknown> = {}, who = owner) =>
    call(who, 'POST', '/aggregation/v1/partners/accessKey', body(products, extra));
  /** Generates a key; answers its receipt id and the key. */
  async function keyFor(products: object[], extra: Record<string, unknown> = {}): Promise<{ receiptId: string; key: string; res: Res }> {
    const res = await generate(products, extra);
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = res.json().data;
    return { receiptId: entry.receipt.receiptId, key: entry.proof.signature, res };
  }
  const read = (key: string, a: AccountJson, path: string, who = reader) => call(who, 'GET', account(a, path), undefined, { 'service-access-key': key });
  const renew = async () => {
    for (const p of [owner, reader, outsider]) await renewToken(ctx, p);
  };

  it('grants the third party the products it names, answered as the granting partner would be answered', async () => {
    const provenance = { ipAddress: '203.0.113.7', token: 'client-cookie-value', clientFingerprint: 'fp-1' };
    const { key, receiptId, res } = await keyFor(
      Object.entries(PRODUCT_PATHS).map(([product]) => grant(product, checking)),
      { provenance },
    );
    const [entry] = res.json().data;
    expect(receiptId).toMatch(/^cr_[A-Za-z0-9]{30}$/);
    expect(entry.receipt).toMatchObject({ profile: 3, version: '1', customerId, partnerId: owner.partnerId });
    expect(entry.receipt.products).toHaveLength(4);
    expect(entry.proof.keyId).toBe('ledgerlink-access-1');
    // Only a hash of the key is kept.
    const row = await ctx.runtime.database.kysely
      .selectFrom('third_party_access_keys')
      .selectAll()
      .where('receipt_id', '=', receiptId)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(sha256Hex(key));
    expect(JSON.stringify(row)).not.toContain(key);
    // The provenance names a client's address and cookie: answered in the receipt, sealed at rest.
    expect(entry.receipt.provenance).toEqual(provenance);
    expect(row.provenance_encrypted).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('203.0.113.7');
    expect(JSON.stringify(row)).not.toContain('client-cookie-value');

    for (const path of Object.values(PRODUCT_PATHS)) {
      const own = await call(owner, 'GET', account(checking, path));
      const theirs = await read(key, checking, path);
      expect(theirs.statusCode, `${path}: ${theirs.body}`).toBe(own.statusCode);
      expect(theirs.json()).toEqual(own.json());
    }
    expect((await read(key, checking, '/details')).json()).toMatchObject({ routingNumber: expect.any(String), realAccountNumber: expect.any(String) });
    // Without the key the third party sees nothing of the customer.
    expect(codeOf(await call(reader, 'GET', account(checking, '/details')))).toEqual([404, '14001']);
  });

  it('refuses what the key does not grant: other products, accounts and customers, other partners, past maxCalls and its time frame', async () => {
    const { key } = await keyFor([
      grant('moneyTransferDetails', checking, { maxCalls: 2 }),
      grant('availableBalance', savings, {}, nowOf(ctx) - 60, nowOf(ctx) + DAY),
    ]);
    expect(codeOf(await read(key, checking, '/owner'))).toEqual([403, '16525']);
    expect(codeOf(await read(key, savings, '/details'))).toEqual([403, '16525']);
    expect(codeOf(await read(key, checking, '/details', outsider))).toEqual([401, '16524']);
    expect(codeOf(await read('not-a-key', checking, '/details'))).toEqual([401, '16524']);
    const otherCustomer = await addCustomer(ctx, owner);
    expect(
      codeOf(await call(reader, 'GET', `/aggregation/v1/customers/${otherCustomer}/accounts/${checking.id}/details`, undefined, { 'service-access-key': key })),
    ).toEqual([403, '16525']);

    expect((await read(key, checking, '/details')).statusCode).toBe(200);
    expect((await read(key, checking, '/details')).statusCode).toBe(200);
    expect(codeOf(await read(key, checking, '/details'))).toEqual([403, '16525']);

    expect((await read(key, savings, '/availableBalance')).statusCode).toBe(200);
    ctx.clock.advance((DAY + 1) * 1000);
    await renew();
    expect(codeOf(await read(key, savings, '/availableBalance'))).toEqual([403, '16525']);
  });

  it('updates a key with a new one (the old stops working) and revokes it, each for its own partner only', async () => {
    const { key, receiptId } = await keyFor([grant('availableBalance', checking)]);
    expect((await read(key, checking, '/availableBalance')).statusCode).toBe(200);

    expect(codeOf(await call(outsider, 'PUT', `/aggregation/v1/partners/accessKey/${receiptId}`, body([grant('accountOwner', checking)])))).toEqual([
      404,
      '16520',
    ]);
    const updated = await call(owner, 'PUT', `/aggregation/v1/partners/accessKey/${receiptId}`, body([grant('accountOwner', checking)]));
    expect(updated.statusCode, updated.body).toBe(200);
    const [entry] = updated.json().data;
    expect(entry.receipt.receiptId).toBe(receiptId);
    const next = entry.proof.signature as string;
    expect(next).not.toBe(key);
    expect(codeOf(await read(key, checking, '/availableBalance'))).toEqual([401, '16524']);
    expect(codeOf(await read(next, checking, '/availableBalance'))).toEqual([403, '16525']);
    const ownerView = await call(owner, 'GET', account(checking, '/owner'));
    expect((await read(next, checking, '/owner')).statusCode).toBe(ownerView.statusCode);

    expect(codeOf(await call(outsider, 'DELETE', `/aggregation/v1/partners/accessKey/${receiptId}`))).toEqual([404, '16520']);
    const revoked = await call(owner, 'DELETE', `/aggregation/v1/partners/accessKey/${receiptId}`);
    expect(revoked.statusCode).toBe(204);
    expect(codeOf(await read(next, checking, '/owner'))).toEqual([401, '16524']);
    expect(codeOf(await call(owner, 'DELETE', `/aggregation/v1/partners/accessKey/${receiptId}`))).toEqual([404, '16520']);
    expect(codeOf(await call(owner, 'PUT', `/aggregation/v1/partners/accessKey/${receiptId}`, body([grant('accountOwner', checking)])))).toEqual([
      404,
      '16520',
    ]);
    expect(codeOf(await call(owner, 'PUT', '/aggregation/v1/partners/accessKey/cr_unknown', body([grant('accountOwner', checking)])))).toEqual([404, '16520']);
  });

  it('refuses grants it cannot give', async () => {
    expect(codeOf(await generate([grant('paymentIndicator', checking)]))).toEqual([400, '16521']);
    expect(
      codeOf(
        await generate([
          grant('moneyTransferDetails', checking, { accessPeriod: { type: 'forever', startTime: iso(nowOf(ctx)), endTime: iso(nowOf(ctx) + DAY) } }),
        ]),
      ),
    ).toEqual([400, '16522']);
    expect(
      codeOf(
        await generate([
          grant('moneyTransferDetails', checking, { accessPeriod: { type: 'timeframe', startTime: 'yesterday', endTime: iso(nowOf(ctx) + DAY) } }),
        ]),
      ),
    ).toEqual([400, '16522']);
    expect(codeOf(await generate([grant('moneyTransferDetails', checking, {}, nowOf(ctx), nowOf(ctx) - 1)]))).toEqual([400, '16522']);
    expect(codeOf(await generate([grant('moneyTransferDetails', checking)], { partnerId: reader.partnerId }))).toEqual([400, '16523']);
    expect(codeOf(await generate([grant('moneyTransferDetails', checking)], { thirdPartyPartnerId: owner.partnerId }))).toEqual([400, '16523']);
    expect(codeOf(await generate([grant('moneyTransferDetails', checking)], { thirdPartyPartnerId: 'partner' }))).toEqual([400, '16523']);
    expect(codeOf(await generate([grant('moneyTransferDetails', { ...checking, id: '5999999999' })]))).toEqual([404, '14001']);
    expect(codeOf(await generate([grant('moneyTransferDetails', checking)], { customerId: '999999999' }))).toEqual([404, '14001']);
    expect(codeOf(await generate([]))).toEqual([400, '10010']);
    const { products: _p, ...noProducts } = body([]);
    expect(codeOf(await call(owner, 'POST', '/aggregation/v1/partners/accessKey', noProducts))).toEqual([400, '10005']);
    // Another partner cannot grant this partner's customer.
    expect(codeOf(await generate([grant('moneyTransferDetails', checking)], { partnerId: outsider.partnerId }, outsider))).toEqual([404, '14001']);
  });

  it('answers in XML', async () => {
    const res = await call(owner, 'POST', '/aggregation/v1/partners/accessKey', body([grant('availableBalance', checking)]), { accept: 'application/xml' });
    expect(res.statusCode, res.body).toBe(200);
    const parsed = new XMLParser({ parseTagValue: false }).parse(res.body).accessKey;
    const receiptId = parsed.data.receipt.receiptId as string;
    expect(receiptId).toMatch(/^cr_/);
    expect(parsed.data.receipt.customerId).toBe(customerId);
    const denied = await call(reader, 'GET', account(checking, '/owner'), undefined, {
      'service-access-key': parsed.data.proof.signature,
      accept: 'application/xml',
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.body).toContain('<code>16525</code>');
    const updated = await call(owner, 'PUT', `/aggregation/v1/partners/accessKey/${receiptId}`, body([grant('accountOwner', checking)]), {
      accept: 'application/xml',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const receipt = new XMLParser({ parseTagValue: false }).parse(updated.body).accessKey.data;
    expect(receipt.receipt).toMatchObject({ receiptId, products: { product: 'accountOwner', accountId: checking.id } });
    expect(receipt.proof.signature).not.toBe(parsed.data.proof.signature);
    const revoked = await call(owner, 'DELETE', `/aggregation/v1/partners/accessKey/${receiptId}`, undefined, { accept: 'application/xml' });
    expect(revoked.statusCode).toBe(204);
  });
});
