import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { XMLParser } from 'fast-xml-parser';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/main/app.js';
import { loadConfig } from '../../src/main/config.js';
import type { Database } from '../../src/platform/db/database.js';
import { rotateAppKey } from '../../src/modules/partners/service.js';
import type { App } from '../../src/http/app-types.js';
import type { Runtime } from '../../src/main/runtime.js';
import { DAY, linkProfile, nowOf, refresh, type AccountJson, type TransactionJson } from '../helpers/aggregation.js';
import { checkConformance } from '../helpers/conformance.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { openSameData, testDialect } from '../helpers/db.js';
import { createTestTransaction } from '../helpers/txpush.js';

const JSON_ACCEPT = 'application/json';
const XML_ACCEPT = 'application/xml';
const xml = new XMLParser({ parseTagValue: false, isArray: (name) => ['account', 'transaction', 'position'].includes(name) });

/** Far enough ahead for every sandbox clock advance of these tests. */
const FAR = 400 * DAY;

let ctx: TestContext;
let partner: TestPartner;
let other: TestPartner;
/** One toDate for every list URL of the file, so a URL stays the same cache key whatever the clocks do. */
let toDate: number;

beforeAll(async () => {
  ctx = await createTestContext();
  toDate = nowOf(ctx) + FAR;
  partner = await partnerWithToken(ctx);
  other = await partnerWithToken(ctx);
}, 120_000);
afterAll(() => ctx.close());

const cache = () => ctx.app.responseCache;
const db = () => ctx.db.database.kysely;
const get = (url: string, who: TestPartner = partner, accept = JSON_ACCEPT, app: App = ctx.app) =>
  app.inject({ method: 'GET', url, headers: { ...who.headers, accept } });

async function call(method: 'POST' | 'DELETE', url: string, payload?: object): Promise<LightMyRequestResponse> {
  const res = await ctx.app.inject({ method, url, headers: partner.headers, ...(payload !== undefined ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} failed: ${res.statusCode} ${res.body}`);
  return res;
}

/** A customer of `who` that linked `profile` at 102105 and had its first refresh. */
async function linkedCustomer(profile = 'profile_03', who = partner): Promise<{ customerId: string; accounts: AccountJson[] }> {
  const customerId = await addCustomer(ctx, who);
  await linkProfile(ctx, who, customerId, profile, 102105);
  return { customerId, accounts: await refresh(ctx, who, customerId) };
}

const transactionsUrl = (customerId: string) =>
  `/aggregation/v3/customers/${customerId}/transactions?fromDate=0&toDate=${toDate}&limit=300&includePending=true`;
const accountTransactionsUrl = (customerId: string, accountId: string) =>
  `/aggregation/v4/customers/${customerId}/accounts/${accountId}/transactions?fromDate=0&toDate=${toDate}&limit=300&includePending=true`;
const accountsUrl = (customerId: string) => `/aggregation/v1/customers/${customerId}/accounts`;

/** Reads `url` and checks the answer was built, not served from the cache (a miss, then stored). */
async function fresh(url: string, who: TestPartner = partner, accept = JSON_ACCEPT): Promise<LightMyRequestResponse> {
  const [hits, misses] = [cache().hits, cache().misses];
  const res = await get(url, who, accept);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  expect(cache().hits, `${url} must not be a cache hit`).toBe(hits);
  expect(cache().misses).toBe(misses + 1);
  return res;
}

/** Reads `url` again and checks it came from the cache with exactly the bytes and type of `first`. */
async function cached(url: string, first: LightMyRequestResponse, who: TestPartner = partner, accept = JSON_ACCEPT): Promise<LightMyRequestResponse> {
  const hits = cache().hits;
  const res = await get(url, who, accept);
  expect(res.statusCode).toBe(200);
  expect(cache().hits, `${url} must be a cache hit`).toBe(hits + 1);
  expect(res.rawPayload.equals(first.rawPayload)).toBe(true);
  expect(res.headers['content-type']).toBe(first.headers['content-type']);
  return res;
}

/** A read before a write: whatever it was, the next one is a cache hit with the same bytes; returns the parsed JSON body. */
async function prime<T>(url: string): Promise<T> {
  const first = await get(url);
  expect(first.statusCode, `${url}: ${first.body}`).toBe(200);
  await cached(url, first);
  return first.json<T>();
}

/** A read after a write: built now (never a hit on the older entry), then served from the cache; returns the parsed JSON body. */
async function readTwice<T>(url: string): Promise<T> {
  const first = await fresh(url);
  await cached(url, first);
  return first.json<T>();
}

const transactionsOf = (body: { transactions: TransactionJson[] }) => body.transactions;
const ids = (list: { id: number | string }[]) => list.map((x) => String(x.id));

describe('response cache: hits', () => {
  let customerId: string;
  let accounts: AccountJson[];
  beforeAll(async () => {
    ({ customerId, accounts } = await linkedCustomer());
  }, 120_000);

  it('serves a repeated transaction list and account list from the cache, byte for byte, in JSON and XML, cached apart', async () => {
    for (const url of [transactionsUrl(customerId), accountsUrl(customerId), accountTransactionsUrl(customerId, accounts[0]!.id)]) {
      const json = await fresh(url);
      expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
      await cached(url, json);
      // The same URL in XML is another entry: built once (a miss), then served from the cache.
      const asXml = await fresh(url, partner, XML_ACCEPT);
      expect(asXml.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(asXml.body.startsWith('<')).toBe(true);
      await cached(url, asXml, partner, XML_ACCEPT);
      // Both stay: JSON is still a hit with the JSON bytes, XML with the XML bytes.
      await cached(url, json);
      await cached(url, asXml, partner, XML_ACCEPT);
    }
    const list = (await get(transactionsUrl(customerId))).json().transactions as TransactionJson[];
    expect(list.length).toBeGreaterThan(10);
    const doc = xml.parse((await get(transactionsUrl(customerId), partner, XML_ACCEPT)).body);
    expect(doc.transactions.transaction.map((t: { id: string }) => t.id)).toEqual(ids(list));
    expect(cache().size).toBeGreaterThanOrEqual(6);
    expect(cache().storedBytes).toBeGreaterThan(0);
  });

  it('answers exactly what the app without a cache answers (LEDGERLINK_RESPONSE_CACHE_MB=0), which caches nothing', async () => {
    const config = loadConfig({ LEDGERLINK_DATA_DIR: ctx.runtime.config.dataDir, LEDGERLINK_RESPONSE_CACHE_MB: '0' });
    expect(config.responseCacheBytes).toBe(0);
    const uncached = await buildApp({ ...ctx.runtime, config }, { logger: false });
    try {
      await uncached.ready();
      checkConformance(uncached);
      const urls = [
        transactionsUrl(customerId),
        accountsUrl(customerId),
        `${accountsUrl(customerId)}/simple`,
        accountTransactionsUrl(customerId, accounts[1]!.id),
      ];
      for (const url of urls) {
        for (const accept of [JSON_ACCEPT, XML_ACCEPT]) {
          const first = await get(url, partner, accept, uncached);
          const again = await get(url, partner, accept, uncached);
          expect(first.statusCode).toBe(200);
          expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
          // The cached app, on a hit, sends the very same bytes and type.
          await get(url, partner, accept);
          const hit = await cached(url, first, partner, accept);
          expect(hit.headers['content-type']).toBe(first.headers['content-type']);
        }
      }
      // Writes show at once without a cache, too.
      const account = accounts.find((a) => a.type === 'checking') ?? accounts[0]!;
      const created = await createTestTransaction(ctx, partner, customerId, account.id, {
        amount: -1.5,
        description: 'seen without a cache',
        transactionDate: nowOf(ctx) - 30,
      });
      expect(ids(transactionsOf((await get(transactionsUrl(customerId), partner, JSON_ACCEPT, uncached)).json()))).toContain(String(created.id));
      expect([uncached.responseCache.hits, uncached.responseCache.misses, uncached.responseCache.size, uncached.responseCache.storedBytes]).toEqual([
        0, 0, 0, 0,
      ]);
    } finally {
      await uncached.close();
    }
  });

  it('keeps every partner to its own customers: another partner asking a cached URL gets 404, never the cached body', async () => {
    for (const url of [transactionsUrl(customerId), accountsUrl(customerId), accountTransactionsUrl(customerId, accounts[0]!.id)]) {
      for (const accept of [JSON_ACCEPT, XML_ACCEPT]) {
        const mine = await get(url, partner, accept);
        expect(mine.statusCode).toBe(200);
        await cached(url, mine, partner, accept);
        const hits = cache().hits;
        const theirs = await get(url, other, accept);
        expect(theirs.statusCode).toBe(404);
        expect(theirs.body).not.toEqual(mine.body);
        expect(theirs.body).toContain('14001');
        expect(cache().hits).toBe(hits);
        // And the owner still gets its own answer.
        await cached(url, mine, partner, accept);
      }
    }
  });
});

describe('response cache: every write shows on the next read', () => {
  let customerId: string;
  let accounts: AccountJson[];
  beforeAll(async () => {
    ({ customerId, accounts } = await linkedCustomer());
  }, 120_000);

  it('a TxPUSH test transaction', async () => {
    const account = accounts.find((a) => a.type === 'checking') ?? accounts[0]!;
    const before = await prime<{ transactions: TransactionJson[] }>(transactionsUrl(customerId));
    const perAccount = await prime<{ transactions: TransactionJson[] }>(accountTransactionsUrl(customerId, account.id));
    const list = await prime<{ accounts: AccountJson[] }>(accountsUrl(customerId));
    const created = await createTestTransaction(ctx, partner, customerId, account.id, {
      amount: -12.34,
      description: 'cache test purchase',
      transactionDate: nowOf(ctx) - 60,
    });
    expect(ids(transactionsOf(before))).not.toContain(String(created.id));
    expect(ids(transactionsOf(perAccount))).not.toContain(String(created.id));

    const after = await readTwice<{ transactions: TransactionJson[] }>(transactionsUrl(customerId));
    expect(after.transactions.find((t) => t.id === created.id)).toMatchObject({ amount: -12.34, description: 'cache test purchase' });
    expect(ids(transactionsOf(await readTwice(accountTransactionsUrl(customerId, account.id))))).toContain(String(created.id));
    // An active test transaction moves the balance.
    const balance = (l: { accounts: AccountJson[] }) => l.accounts.find((a) => a.id === account.id)!.balance;
    expect(balance(await readTwice(accountsUrl(customerId)))).toBeCloseTo(balance(list) - 12.34, 2);
    // And in XML, which was cached before the write too.
    const xmlBefore = await fresh(transactionsUrl(customerId), partner, XML_ACCEPT);
    expect(xmlBefore.body).toContain('cache test purchase');
  });

  it('a sandbox clock advance', async () => {
    const before = await prime<{ transactions: TransactionJson[] }>(transactionsUrl(customerId));
    const accountsBefore = await prime<{ accounts: AccountJson[] }>(accountsUrl(customerId));
    await call('POST', `/sandbox/v1/customers/${customerId}/clock`, { days: 10 });
    const after = await readTwice<{ transactions: TransactionJson[] }>(transactionsUrl(customerId));
    const known = new Set(ids(transactionsOf(before)));
    expect(transactionsOf(after).filter((t) => !known.has(String(t.id))).length).toBeGreaterThan(0);
    const accountsAfter = await readTwice<{ accounts: AccountJson[] }>(accountsUrl(customerId));
    expect(accountsAfter.accounts[0]!.aggregationAttemptDate).toBeGreaterThan(accountsBefore.accounts[0]!.aggregationAttemptDate!);
  });

  it('a refresh (v1 and v2)', async () => {
    const account = accounts.find((a) => a.type === 'checking') ?? accounts[0]!;
    // A pending test transaction the institution does not show: a refresh drops it.
    const pending = await createTestTransaction(ctx, partner, customerId, account.id, {
      amount: -3,
      description: 'vanishing',
      transactionDate: nowOf(ctx),
      status: 'pending',
    });
    expect(ids(transactionsOf(await readTwice(transactionsUrl(customerId))))).toContain(String(pending.id));
    const accountsBefore = await readTwice<{ accounts: AccountJson[] }>(accountsUrl(customerId));
    ctx.clock.advance(120_000);
    await refresh(ctx, partner, customerId);
    expect(ids(transactionsOf(await readTwice(transactionsUrl(customerId))))).not.toContain(String(pending.id));
    const accountsAfter = await readTwice<{ accounts: AccountJson[] }>(accountsUrl(customerId));
    expect(accountsAfter.accounts[0]!.aggregationAttemptDate).toBeGreaterThan(accountsBefore.accounts[0]!.aggregationAttemptDate!);

    // The background refresh (v2) too.
    ctx.clock.advance(120_000);
    await call('POST', `/aggregation/v2/customers/${customerId}/accounts`, {});
    await ctx.app.engine.idle();
    const afterV2 = await readTwice<{ accounts: AccountJson[] }>(accountsUrl(customerId));
    expect(afterV2.accounts[0]!.aggregationAttemptDate).toBeGreaterThan(accountsAfter.accounts[0]!.aggregationAttemptDate!);
  });

  it('a write made outside the app, straight into the tables', async () => {
    const before = await prime<{ transactions: TransactionJson[] }>(transactionsUrl(customerId));
    const target = transactionsOf(before).find((t) => t.status === 'active')!;
    await db().updateTable('transactions').set({ description: 'changed behind the app', amount: 987.65 }).where('id', '=', target.id).execute();
    const after = await readTwice<{ transactions: TransactionJson[] }>(transactionsUrl(customerId));
    expect(after.transactions.find((t) => t.id === target.id)).toMatchObject({ description: 'changed behind the app', amount: 987.65 });
    // The single account's list, and the account list after a direct change of an account.
    const perAccount = await readTwice<{ transactions: TransactionJson[] }>(accountTransactionsUrl(customerId, String(target.accountId)));
    expect(perAccount.transactions.find((t) => t.id === target.id)?.description).toBe('changed behind the app');
    await readTwice(accountsUrl(customerId));
    await db().updateTable('accounts').set({ name: 'Renamed behind the app' }).where('id', '=', Number(target.accountId)).execute();
    const list = await readTwice<{ accounts: AccountJson[] }>(accountsUrl(customerId));
    expect(list.accounts.find((a) => a.id === String(target.accountId))?.name).toBe('Renamed behind the app');
    // A direct delete of the transaction.
    await readTwice(transactionsUrl(customerId));
    await db().deleteFrom('transactions').where('id', '=', target.id).execute();
    expect(ids(transactionsOf(await readTwice(transactionsUrl(customerId))))).not.toContain(String(target.id));
  });

  it('deleting an account, then the institution login, then the customer', async () => {
    const before = await prime<{ transactions: TransactionJson[] }>(transactionsUrl(customerId));
    const list = await prime<{ accounts: AccountJson[] }>(accountsUrl(customerId));
    expect(list.accounts.length).toBeGreaterThan(1);
    const gone = list.accounts.find((a) => transactionsOf(before).some((t) => String(t.accountId) === a.id))!;
    const goneUrl = accountTransactionsUrl(customerId, gone.id);
    await prime(goneUrl);
    await call('DELETE', `/aggregation/v1/customers/${customerId}/accounts/${gone.id}`);
    expect(ids((await readTwice<{ accounts: AccountJson[] }>(accountsUrl(customerId))).accounts)).toEqual(ids(list.accounts.filter((a) => a.id !== gone.id)));
    const after = await readTwice<{ transactions: TransactionJson[] }>(transactionsUrl(customerId));
    expect(after.transactions.some((t) => String(t.accountId) === gone.id)).toBe(false);
    expect(after.transactions.length).toBeGreaterThan(0);
    expect((await get(goneUrl)).statusCode).toBe(404);

    const loginId = list.accounts[0]!.institutionLoginId;
    await prime(`${accountsUrl(customerId)}/simple`);
    await call('DELETE', `/aggregation/v1/customers/${customerId}/institutionLogins/${loginId}`);
    expect((await readTwice<{ accounts: AccountJson[] }>(accountsUrl(customerId))).accounts).toEqual([]);
    expect((await readTwice<{ accounts: AccountJson[] }>(`${accountsUrl(customerId)}/simple`)).accounts).toEqual([]);
    expect((await readTwice<{ transactions: TransactionJson[] }>(transactionsUrl(customerId))).transactions).toEqual([]);

    for (const accept of [JSON_ACCEPT, XML_ACCEPT]) {
      const res = await get(accountsUrl(customerId), partner, accept);
      await cached(accountsUrl(customerId), res, partner, accept);
    }
    await call('DELETE', `/aggregation/v1/customers/${customerId}`);
    for (const url of [accountsUrl(customerId), transactionsUrl(customerId)]) {
      for (const accept of [JSON_ACCEPT, XML_ACCEPT]) {
        const hits = cache().hits;
        const res = await get(url, partner, accept);
        expect(res.statusCode, url).toBe(404);
        expect(res.body).toContain('14001');
        expect(cache().hits).toBe(hits);
      }
    }
  });
});

describe('data_version triggers', () => {
  type Row = Record<string, unknown>;
  let mine: { customerId: string; accounts: AccountJson[] };
  let theirs: { customerId: string; accounts: AccountJson[] };
  let bystander: { customerId: string; accounts: AccountJson[] };
  const k = () => db() as unknown as Kysely<Record<string, Row>>;
  const versions = async () => {
    const rows = await db().selectFrom('customers').select(['id', 'data_version']).execute();
    return new Map(rows.map((r) => [String(r.id), Number(r.data_version)]));
  };

  beforeAll(async () => {
    // profile_02 has investment accounts with positions.
    mine = await linkedCustomer('profile_02');
    theirs = await linkedCustomer('profile_02');
    bystander = await linkedCustomer('profile_01', other);
  }, 120_000);

  /** Runs `change` and checks it moved exactly the data_version of `moved`, and moved it forward. */
  async function expectMoves(what: string, moved: string[], change: () => Promise<unknown>): Promise<void> {
    const before = await versions();
    await change();
    const after = await versions();
    for (const [id, version] of before) {
      if (moved.includes(id)) expect(after.get(id), `${what}: customer ${id} moves`).toBeGreaterThan(version);
      else expect(after.get(id), `${what}: customer ${id} stays`).toBe(version);
    }
  }

  /** A copy of `row` without its id, `ref` made unique where the table has one. */
  const copyOf = (row: Row, changes: Row = {}) => {
    const { id: _id, ...rest } = row;
    return { ...rest, ...('ref' in rest ? { ref: `copy-${randomBytes(4).toString('hex')}` } : {}), ...changes };
  };
  const one = async (table: string, column: string, value: unknown) =>
    k().selectFrom(table).selectAll().where(column, '=', value).orderBy('id').executeTakeFirstOrThrow();
  const insertCopy = async (table: string, row: Row) => Number((await k().insertInto(table).values(copyOf(row)).returning('id').executeTakeFirstOrThrow()).id);

  for (const table of ['institution_logins', 'accounts', 'transactions', 'positions'] as const) {
    it(`insert, update and delete on ${table} move the owning customer's data_version only`, async () => {
      const customer = Number(mine.customerId);
      const investment = mine.accounts.find((a) => (a.position?.length ?? 0) > 0);
      expect(investment, 'profile_02 has an account with positions').toBeDefined();
      const source = table === 'positions' ? await one('positions', 'account_id', Number(investment!.id)) : await one(table, 'customer_id', customer);
      let id = 0;
      await expectMoves(`insert into ${table}`, [mine.customerId], async () => {
        id = await insertCopy(table, source);
      });
      const set: Row = {
        institution_logins: { aggregation_status_message: 'touched' },
        accounts: { name: 'touched' },
        transactions: { description: 'touched' },
        positions: { record: '{"touched":true}' },
      }[table];
      await expectMoves(`update ${table}`, [mine.customerId], () => k().updateTable(table).set(set).where('id', '=', id).execute());
      // An update that changes no value still counts: the row was written.
      await expectMoves(`idempotent update ${table}`, [mine.customerId], () => k().updateTable(table).set(set).where('id', '=', id).execute());
      await expectMoves(`delete from ${table}`, [mine.customerId], () => k().deleteFrom(table).where('id', '=', id).execute());
      // A statement that matches nothing moves nobody.
      await expectMoves(`update of no ${table} row`, [], () => k().updateTable(table).set(set).where('id', '=', -1).execute());
    });
  }

  it('an update that moves a row to another customer moves both customers, the one it left and the one it joined', async () => {
    // The app never moves rows between customers, but another writer may: the customer the row left reads differently too.
    const [from, to] = [Number(mine.customerId), Number(theirs.customerId)];
    const fromAccount = mine.accounts.find((a) => (a.position?.length ?? 0) > 0)!;
    const toAccount = theirs.accounts.find((a) => a.id !== fromAccount.id)!;
    const login = await one('institution_logins', 'customer_id', from);
    const loginId = await insertCopy('institution_logins', login);
    await expectMoves('institution login moved', [mine.customerId, theirs.customerId], () =>
      k().updateTable('institution_logins').set({ customer_id: to }).where('id', '=', loginId).execute(),
    );
    const accountId = await insertCopy('accounts', { ...(await one('accounts', 'customer_id', from)), institution_login_id: loginId, customer_id: to });
    await expectMoves('account moved', [mine.customerId, theirs.customerId], () =>
      k().updateTable('accounts').set({ customer_id: from }).where('id', '=', accountId).execute(),
    );
    const transaction = await one('transactions', 'account_id', Number(fromAccount.id));
    await expectMoves('transaction moved', [mine.customerId, theirs.customerId], () =>
      k()
        .updateTable('transactions')
        .set({ customer_id: to, account_id: Number(toAccount.id) })
        .where('id', '=', Number(transaction.id))
        .execute(),
    );
    const position = await one('positions', 'account_id', Number(fromAccount.id));
    await expectMoves('position moved', [mine.customerId, theirs.customerId], () =>
      k()
        .updateTable('positions')
        .set({ account_id: Number(toAccount.id) })
        .where('id', '=', Number(position.id))
        .execute(),
    );
    // And through the HTTP API: the transaction is gone from the list of the customer it left, at once.
    const list = await prime<{ transactions: TransactionJson[] }>(transactionsUrl(mine.customerId));
    const moving = list.transactions[0]!;
    await db()
      .updateTable('transactions')
      .set({ customer_id: to, account_id: Number(toAccount.id) })
      .where('id', '=', moving.id)
      .execute();
    expect(ids((await get(transactionsUrl(mine.customerId))).json().transactions)).not.toContain(String(moving.id));
  });

  it('a statement over many rows of several customers moves each of them, and no one else', async () => {
    const customers = [Number(mine.customerId), Number(theirs.customerId)];
    await expectMoves('update of many transactions', [mine.customerId, theirs.customerId], () =>
      k().updateTable('transactions').set({ memo: 'bulk' }).where('customer_id', 'in', customers).execute(),
    );
    await expectMoves("update of one customer's accounts", [theirs.customerId], () =>
      k().updateTable('accounts').set({ account_nickname: 'bulk' }).where('customer_id', '=', Number(theirs.customerId)).execute(),
    );
    const positions = await k()
      .selectFrom('positions')
      .innerJoin('accounts', 'accounts.id', 'positions.account_id')
      .select('positions.id')
      .where('accounts.customer_id', 'in', customers)
      .execute();
    expect(positions.length).toBeGreaterThan(1);
    await expectMoves('update of positions of two customers', [mine.customerId, theirs.customerId], () =>
      k()
        .updateTable('positions')
        .set({ record: '{}' })
        .where(
          'id',
          'in',
          positions.map((p) => p.id),
        )
        .execute(),
    );
    // Raw SQL, as any other writer would send it.
    await expectMoves('raw SQL delete', [theirs.customerId], () =>
      sql`delete from transactions where customer_id = ${Number(theirs.customerId)} and status = 'pending'`.execute(db()),
    );
    expect(bystander.accounts.length).toBeGreaterThan(0);
  });

  it("the API's own writes move it too, and a cascade (deleting an account with transactions and positions) as well", async () => {
    const investment = theirs.accounts.find((a) => (a.position?.length ?? 0) > 0)!;
    await expectMoves('account delete through the API', [theirs.customerId], () =>
      call('DELETE', `/aggregation/v1/customers/${theirs.customerId}/accounts/${investment.id}`),
    );
    await expectMoves('account delete by SQL cascading to its rows', [theirs.customerId], () =>
      k()
        .deleteFrom('accounts')
        .where('id', '=', Number(theirs.accounts.find((a) => a.id !== investment.id)!.id))
        .execute(),
    );
  });
});

describe.runIf(testDialect() === 'sqlite')('another process on the same SQLite file', () => {
  let app: App;
  let runtime: Runtime;
  let second: Database;
  let fileCtx: TestContext;

  beforeAll(async () => {
    fileCtx = await createTestContext({}, { logger: false }, { onFile: true });
    ({ app, runtime } = fileCtx);
    second = openSameData(fileCtx.db);
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await fileCtx?.close();
  });

  it('refuses a rotated app key on the very next request when the rotation was committed by another connection', async () => {
    const p = await partnerWithToken(fileCtx);
    const list = () => app.inject({ method: 'GET', url: '/aggregation/v1/customers', headers: p.headers });
    // The caller is now remembered by this process.
    expect((await list()).statusCode).toBe(200);
    expect((await list()).statusCode).toBe(200);
    const newKey = await rotateAppKey({ ...runtime, database: second }, p.partnerId);
    const refused = await list();
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('10020');
    const withNewKey = await app.inject({ method: 'GET', url: '/aggregation/v1/customers', headers: { ...p.headers, 'service-app-key': newKey } });
    expect(withNewKey.statusCode).toBe(200);
  });

  it('shows a change committed by another connection on the next read of a cached list', async () => {
    const p = await partnerWithToken(fileCtx);
    const customerId = await addCustomer(fileCtx, p);
    await linkProfile(fileCtx, p, customerId, 'profile_03', 102105);
    await refresh(fileCtx, p, customerId);
    const url = `/aggregation/v3/customers/${customerId}/transactions?fromDate=0&toDate=${nowOf(fileCtx) + DAY}&limit=50`;
    const first = await app.inject({ method: 'GET', url, headers: p.headers });
    const hits = app.responseCache.hits;
    const again = await app.inject({ method: 'GET', url, headers: p.headers });
    expect(app.responseCache.hits).toBe(hits + 1);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const target = first.json().transactions[0] as TransactionJson;
    await second.kysely.updateTable('transactions').set({ description: 'written by another process' }).where('id', '=', target.id).execute();
    const after = await app.inject({ method: 'GET', url, headers: p.headers });
    expect(app.responseCache.hits).toBe(hits + 1);
    expect(after.json().transactions.find((t: TransactionJson) => t.id === target.id).description).toBe('written by another process');
    // Deleting the customer elsewhere: the app answers 404 at once.
    await second.kysely.deleteFrom('customers').where('id', '=', Number(customerId)).execute();
    expect((await app.inject({ method: 'GET', url, headers: p.headers })).statusCode).toBe(404);
  });
});
