import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTransactions, type AccountJson, DAY, linkProfile, nowOf, refresh, type TransactionJson } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, renewToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { dashboardSignIn } from '../helpers/dashboard.js';
import { accessFor, basicAuth, claim, mintToken, pathOf, readAccess, type WireAccountSet } from '../helpers/simplefin-server.js';

const PUBLIC_URL = 'https://ledgerlink.example.org';
const TWO_DECIMALS = /^-?\d+\.\d{2}$/;

let ctx: TestContext;
let partner: TestPartner;
let other: TestPartner;
let customerId: string;
let accounts: AccountJson[];

beforeAll(async () => {
  ctx = await createTestContext({ LEDGERLINK_PUBLIC_URL: PUBLIC_URL, LEDGERLINK_SIMPLEFIN_DAILY_REQUESTS: '50' });
  partner = await partnerWithToken(ctx);
  other = await partnerWithToken(ctx);
  customerId = await addCustomer(ctx, partner);
  await linkProfile(ctx, partner, customerId, 'profile_03');
  // Weeks of the customer's clock: transactions appear, some pending at the end.
  ctx.clock.advance(40 * DAY * 1000);
  await renewToken(ctx, partner);
  await renewToken(ctx, other);
  accounts = await refresh(ctx, partner, customerId);
}, 120_000);
afterAll(async () => ctx?.close());

const accountsOf = async (accessUrl: string, query = '') => {
  const res = await readAccess(ctx, accessUrl, 'accounts', query);
  expect(res.statusCode, res.body).toBe(200);
  return { res, set: res.json<WireAccountSet>() };
};

describe('minting a setup token', () => {
  it('answers 201 with the base64 of the claim URL, made from LEDGERLINK_PUBLIC_URL, claimable for an hour', async () => {
    const token = await mintToken(ctx, partner, customerId);
    expect(Buffer.from(token.setupToken, 'base64').toString('utf8')).toBe(token.claimUrl);
    expect(token.claimUrl.startsWith(`${PUBLIC_URL}/simplefin/claim/`)).toBe(true);
    expect(token.expiresAt).toBe(nowOf(ctx) + 3600);
  });

  it("refuses another partner's customer with 404, and an account the customer does not have with 400 14181", async () => {
    const theirs = await ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/simplefin/tokens`,
      headers: { ...other.headers, 'content-type': 'application/json' },
      payload: {},
    });
    expect([theirs.statusCode, theirs.json().code]).toEqual([404, '14001']);
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/simplefin/tokens`,
      headers: { ...partner.headers, 'content-type': 'application/json' },
      payload: { accountIds: ['5011000999'] },
    });
    expect([unknown.statusCode, unknown.json().code]).toEqual([400, '14181']);
    expect(unknown.json().message).toContain('5011000999');
  });

  it('answers 409 14180 naming LEDGERLINK_PUBLIC_URL when the public URL was not set', async () => {
    const bare = await createTestContext();
    try {
      const p = await partnerWithToken(bare);
      const c = await addCustomer(bare, p);
      const res = await bare.app.inject({
        method: 'POST',
        url: `/aggregation/v1/customers/${c}/simplefin/tokens`,
        headers: { ...p.headers, 'content-type': 'application/json' },
        payload: {},
      });
      expect([res.statusCode, res.json().code]).toEqual([409, '14180']);
      expect(res.json().message).toContain('LEDGERLINK_PUBLIC_URL');
      // The dashboard's button gets the same answer, which its form shows.
      const dashboard = await dashboardSignIn(bare, p.partnerId, p.partnerSecret);
      const fromDashboard = await dashboard.call('POST', `/dashboard/api/customers/${c}/simplefin/tokens`, {});
      expect([fromDashboard.statusCode, fromDashboard.json().code]).toEqual([409, '14180']);
      expect(await bare.runtime.database.kysely.selectFrom('simplefin_setup_tokens').selectAll().execute()).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});

describe('claiming a setup token', () => {
  it('answers exactly the access URL (no trailing newline or slash, URL-safe credentials), once; then 403', async () => {
    const token = await mintToken(ctx, partner, customerId);
    const first = await claim(ctx, token.claimUrl);
    expect(first.statusCode, first.body).toBe(200);
    const accessUrl = first.body;
    expect(accessUrl).toMatch(/^https:\/\/[A-Za-z0-9]+:[A-Za-z0-9]+@ledgerlink\.example\.org\/simplefin$/);
    expect(accessUrl.endsWith('\n') || accessUrl.endsWith('/')).toBe(false);
    const second = await claim(ctx, token.claimUrl);
    expect([second.statusCode, second.json().code]).toEqual([403, '14182']);
  });

  it('refuses an expired token and an unknown one with 403, never 401 or 404', async () => {
    const token = await mintToken(ctx, partner, customerId);
    ctx.clock.advance(3601_000);
    const expired = await claim(ctx, token.claimUrl);
    expect([expired.statusCode, expired.json().code]).toEqual([403, '14182']);
    for (const path of ['/simplefin/claim/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '/simplefin/claim/not-a-token']) {
      const res = await ctx.app.inject({ method: 'POST', url: path });
      expect([res.statusCode, res.json().code]).toEqual([403, '14182']);
    }
    await renewToken(ctx, partner);
    await renewToken(ctx, other);
  });

  it('ignores an empty Authorization: Basic header and whatever body and content type the POST carries', async () => {
    for (const headers of <Record<string, string>[]>[
      { authorization: 'Basic ' },
      { authorization: 'Basic', 'content-type': 'application/json' },
      { 'content-type': 'application/x-www-form-urlencoded' },
    ]) {
      const token = await mintToken(ctx, partner, customerId);
      const res = await claim(ctx, token.claimUrl, headers);
      expect(res.statusCode, `${JSON.stringify(headers)}: ${res.body}`).toBe(200);
      expect(res.body).toMatch(/^https:\/\/[A-Za-z0-9]+:[A-Za-z0-9]+@/);
    }
  });
});

describe('GET {access}/accounts', () => {
  let accessUrl: string;
  beforeAll(async () => {
    accessUrl = await accessFor(ctx, partner, customerId);
  });

  it('answers the v1 shape as application/json: errors present, org with domain, name and sfin-url, every field a client needs', async () => {
    const { res, set } = await accountsOf(accessUrl, 'pending=1');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(set.errors).toEqual([]);
    expect(set.accounts.map((a) => a.id).sort()).toEqual(accounts.map((a) => a.id).sort());
    for (const account of set.accounts) {
      expect(account.org).toEqual(expect.objectContaining({ domain: expect.any(String), name: expect.any(String), 'sfin-url': `${PUBLIC_URL}/simplefin` }));
      expect(account.org.domain.length).toBeGreaterThan(0);
      expect(account).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          name: expect.any(String),
          currency: 'USD',
          'balance-date': expect.any(Number),
          transactions: expect.any(Array),
        }),
      );
      expect(account.balance).toMatch(TWO_DECIMALS);
      expect(account['available-balance']).toMatch(TWO_DECIMALS);
      for (const t of account.transactions) {
        expect(Object.keys(t).sort()).toEqual(['amount', 'description', 'id', 'memo', 'payee', 'pending', 'posted', 'transacted_at']);
        expect(t.amount).toMatch(TWO_DECIMALS);
        expect(typeof t.posted).toBe('number');
        expect(typeof t.transacted_at).toBe('number');
        expect(typeof t.pending).toBe('boolean');
      }
    }
    // Amounts and balances are never JSON numbers.
    expect(res.body).not.toMatch(/"(amount|balance|available-balance)":\s*-?\d/);
    const all = set.accounts.flatMap((a) => a.transactions);
    expect(all.some((t) => t.pending)).toBe(true);
    expect(all.some((t) => t.amount.startsWith('-'))).toBe(true);
    for (const t of all.filter((x) => x.pending)) expect(t.transacted_at).toBeGreaterThan(0);
  });

  it('serves the accounts and transactions the partner API serves: balances, amounts, dates and descriptions', async () => {
    const now = nowOf(ctx);
    const { set } = await accountsOf(accessUrl, `start-date=${now - 30 * DAY}&end-date=${now + DAY}&pending=1`);
    // The API lists by transaction date; the window is on the posted date, which is the same or later.
    const listed = await allTransactions(ctx, partner, customerId, { fromDate: now - 60 * DAY, toDate: now + DAY, includePending: true });
    const api = listed.filter((t) => (t.postedDate ?? t.transactionDate) >= now - 30 * DAY && (t.postedDate ?? t.transactionDate) < now + DAY);
    expect(api.length).toBeLessThan(listed.length);
    const served = set.accounts.flatMap((a) => a.transactions.map((t) => ({ ...t, accountId: a.id })));
    expect(served.map((t) => t.id).sort()).toEqual(api.map((t) => String(t.id)).sort());
    const byId = new Map<string, TransactionJson>(api.map((t) => [String(t.id), t]));
    for (const t of served) {
      const record = byId.get(t.id)!;
      expect(t.amount).toBe(record.amount.toFixed(2));
      expect(t.accountId).toBe(String(record.accountId));
      expect(t.description).toBe(record.description);
      expect(t.pending).toBe(record.status === 'pending');
      expect(t.transacted_at).toBe(record.transactionDate);
      expect(t.posted).toBe(record.postedDate ?? record.transactionDate);
    }
    for (const account of set.accounts) {
      const record = accounts.find((a) => a.id === account.id)!;
      expect([account.name, account.balance]).toEqual([record.name, record.balance.toFixed(2)]);
    }
  });

  it('leaves pending transactions out unless pending=1, and the pending field with them', async () => {
    const { set } = await accountsOf(accessUrl);
    const all = set.accounts.flatMap((a) => a.transactions);
    expect(all.length).toBeGreaterThan(0);
    for (const t of all) expect(t).not.toHaveProperty('pending');
    const { set: withPending } = await accountsOf(accessUrl, 'pending=1');
    const pending = withPending.accounts.flatMap((a) => a.transactions).filter((t) => t.pending);
    expect(pending.length).toBeGreaterThan(0);
    for (const t of pending) expect(all.map((x) => x.id)).not.toContain(t.id);
  });

  it('answers "transactions": [] on every account with balances-only=1', async () => {
    const { set } = await accountsOf(accessUrl, 'balances-only=1&pending=1');
    expect(set.accounts.length).toBe(accounts.length);
    for (const account of set.accounts) expect(account.transactions).toEqual([]);
  });

  it('takes start-date inclusive and end-date exclusive on `posted`, accepts a future end, and without dates the last 90 days', async () => {
    const { set: everything } = await accountsOf(accessUrl, 'start-date=0&pending=1');
    const all = everything.accounts.flatMap((a) => a.transactions);
    const dates = [...new Set(all.map((t) => t.posted))].sort((x, y) => x - y);
    expect(dates.length).toBeGreaterThan(3);
    const cut = dates[Math.floor(dates.length / 2)]!;
    const { set: before } = await accountsOf(accessUrl, `start-date=0&end-date=${cut}&pending=1`);
    const { set: after } = await accountsOf(accessUrl, `start-date=${cut}&end-date=${nowOf(ctx) + 365 * DAY}&pending=1`);
    const early = before.accounts.flatMap((a) => a.transactions);
    const late = after.accounts.flatMap((a) => a.transactions);
    expect(early.every((t) => t.posted < cut)).toBe(true);
    expect(late.every((t) => t.posted >= cut)).toBe(true);
    expect(late.some((t) => t.posted === cut)).toBe(true);
    expect(early.length + late.length).toBe(all.length);
    // The profile's history reaches further back than the default window.
    const oldest = dates[0]!;
    expect(oldest).toBeLessThan(nowOf(ctx) - 90 * DAY);
    const { set: defaults } = await accountsOf(accessUrl, 'pending=1');
    const windowed = defaults.accounts.flatMap((a) => a.transactions);
    expect(windowed.length).toBe(all.filter((t) => t.posted >= nowOf(ctx) - 90 * DAY).length);
  });

  it('serves a purchase in the window it posted in, made days before, and every decimal of an amount that has more than two', async () => {
    // A customer of its own: its transactions are not the shared customer's, which other tests compare to two decimals.
    const own = await addCustomer(ctx, partner);
    await linkProfile(ctx, partner, own, 'profile_03');
    const [account] = await refresh(ctx, partner, own);
    const now = nowOf(ctx);
    const add = async (body: object) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/aggregation/v1/customers/${own}/accounts/${account!.id}/transactions`,
        headers: { ...partner.headers, accept: 'application/json' },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(201);
      return String(res.json().id);
    };
    const latePosting = await add({ amount: -42.5, description: 'LATE POSTING CARD PURCHASE', transactionDate: now - 9 * DAY, postedDate: now - 6 * DAY });
    const thousandths = await add({ amount: -12.345, description: 'THREE DECIMALS', transactionDate: now - DAY });
    const subCent = await add({ amount: -0.004, description: 'SUB CENT', transactionDate: now - DAY });
    const access = await accessFor(ctx, partner, own);

    // Synced up to a week ago: the purchase made nine days ago posted since, so it is in the next window.
    const { set } = await accountsOf(access, `start-date=${now - 7 * DAY}&account=${account!.id}`);
    const served = new Map(set.accounts.flatMap((a) => a.transactions).map((t) => [t.id, t]));
    expect(served.get(latePosting)).toMatchObject({ posted: now - 6 * DAY, transacted_at: now - 9 * DAY, amount: '-42.50' });
    expect(served.get(thousandths)?.amount).toBe('-12.345');
    expect(served.get(subCent)?.amount).toBe('-0.004');
    // And not in the window before, where it was made but had not posted.
    const { set: earlier } = await accountsOf(access, `start-date=${now - 10 * DAY}&end-date=${now - 7 * DAY}&account=${account!.id}`);
    expect(earlier.accounts.flatMap((a) => a.transactions).map((t) => t.id)).not.toContain(latePosting);
  });

  it("serves only the accounts asked for with account (repeatable), and only the token's accounts when it named some", async () => {
    const [first, second] = accounts;
    const { set } = await accountsOf(accessUrl, `account=${first!.id}&account=${second!.id}&balances-only=1`);
    expect(set.accounts.map((a) => a.id).sort()).toEqual([first!.id, second!.id].sort());
    const narrow = await accessFor(ctx, partner, customerId, { accountIds: [first!.id] });
    const { set: only } = await accountsOf(narrow, 'balances-only=1');
    expect(only.accounts.map((a) => a.id)).toEqual([first!.id]);
    const { set: none } = await accountsOf(narrow, `account=${second!.id}`);
    expect(none.accounts).toEqual([]);
  });

  it('refuses missing, wrong and malformed credentials with 403, never 401', async () => {
    const u = new URL(accessUrl);
    const wrongPassword = `Basic ${Buffer.from(`${u.username}:nope`).toString('base64')}`;
    for (const authorization of [undefined, 'Basic ', wrongPassword, 'Bearer abc', 'Basic !!!']) {
      const res = await ctx.app.inject({ method: 'GET', url: '/simplefin/accounts', headers: authorization ? { authorization } : {} });
      expect([res.statusCode, res.json().code], String(authorization)).toEqual([403, '14183']);
    }
  });

  it('answers 400 for a start-date that is not a number', async () => {
    const res = await readAccess(ctx, accessUrl, 'accounts', 'start-date=yesterday');
    expect([res.statusCode, res.json().code]).toEqual([400, '10010']);
  });
});

describe('GET {access}/info', () => {
  it('answers the versions served', async () => {
    const accessUrl = await accessFor(ctx, partner, customerId);
    const res = await readAccess(ctx, accessUrl, 'info');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ versions: ['1.0', '2.0'] });
  });
});

describe('accesses', () => {
  it('are listed with their use and revoked: then their credentials answer 403', async () => {
    const customer = await addCustomer(ctx, partner);
    const accessUrl = await accessFor(ctx, partner, customer);
    await accountsOf(accessUrl);
    await readAccess(ctx, accessUrl, 'info');
    const list = await ctx.app.inject({ method: 'GET', url: `/aggregation/v1/customers/${customer}/simplefin/accesses`, headers: partner.headers });
    expect(list.statusCode, list.body).toBe(200);
    const [access] = list.json().accesses;
    expect(access).toEqual({
      id: expect.any(String),
      customerId: customer,
      createdDate: nowOf(ctx),
      lastUsedDate: nowOf(ctx),
      requests: 2,
      requestsToday: 1,
      dailyBudget: 50,
    });
    expect(list.body).not.toContain(new URL(accessUrl).password);
    const url = `/aggregation/v1/customers/${customer}/simplefin/accesses/${access.id}`;
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: `/aggregation/v1/customers/${customerId}/simplefin/accesses/${access.id}`, headers: partner.headers }))
        .statusCode,
    ).toBe(404);
    expect((await ctx.app.inject({ method: 'DELETE', url, headers: other.headers })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'DELETE', url, headers: partner.headers })).statusCode).toBe(204);
    const refused = await readAccess(ctx, accessUrl, 'accounts');
    expect([refused.statusCode, refused.json().code]).toEqual([403, '14183']);
    const after = await ctx.app.inject({ method: 'GET', url: `/aggregation/v1/customers/${customer}/simplefin/accesses`, headers: partner.headers });
    expect(after.json().accesses[0].revokedDate).toBe(nowOf(ctx));
  });

  it("end with their customer: a deleted customer's access answers 403", async () => {
    const customer = await addCustomer(ctx, partner);
    const accessUrl = await accessFor(ctx, partner, customer);
    expect((await ctx.app.inject({ method: 'DELETE', url: `/aggregation/v1/customers/${customer}`, headers: partner.headers })).statusCode).toBe(204);
    expect((await readAccess(ctx, accessUrl, 'accounts')).statusCode).toBe(403);
  });
});

describe('the daily request budget', () => {
  it('warns in errors (and errlist) as it runs out, refuses with 403 14184 past it, and starts again the next UTC day', async () => {
    const small = await createTestContext({ LEDGERLINK_PUBLIC_URL: PUBLIC_URL, LEDGERLINK_SIMPLEFIN_DAILY_REQUESTS: '3' });
    try {
      const p = await partnerWithToken(small);
      const c = await addCustomer(small, p);
      const accessUrl = await accessFor(small, p, c);
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await readAccess(small, accessUrl, 'accounts'));
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 403]);
      expect(answers[0]!.json().errors).toEqual([]);
      expect(answers[1]!.json().errors).toEqual([expect.stringContaining('1 of its 3 daily requests left')]);
      expect(answers[2]!.json().errlist).toEqual([{ code: 'gen.budget', msg: expect.stringContaining('0 of its 3 daily requests left') }]);
      expect(answers[3]!.json().code).toBe('14184');
      // /info takes none of it.
      expect((await readAccess(small, accessUrl, 'info')).statusCode).toBe(200);
      const secondsToMidnight = DAY - (nowOf(small) % DAY);
      small.clock.advance(secondsToMidnight * 1000);
      expect((await readAccess(small, accessUrl, 'accounts')).statusCode).toBe(200);
    } finally {
      await small.close();
    }
  });
});

describe('the request log', () => {
  it("keeps every access's requests in its partner's log with the credentials, the claim token and the access URL redacted", async () => {
    const customer = await addCustomer(ctx, partner);
    const token = await mintToken(ctx, partner, customer);
    const secret = token.claimUrl.split('/').pop()!;
    const claimed = await claim(ctx, token.claimUrl);
    const accessUrl = claimed.body;
    const { username, password } = new URL(accessUrl);
    await readAccess(ctx, accessUrl, 'accounts');
    await ctx.app.inject({
      method: 'GET',
      url: '/simplefin/accounts',
      headers: { authorization: `Basic ${Buffer.from(`${username}:wrong`).toString('base64')}` },
    });
    await ctx.app.requestLog.flush();
    const rows = await ctx.runtime.database.kysely.selectFrom('request_log').selectAll().where('partner_id', '=', partner.partnerId).execute();
    const text = JSON.stringify(rows);
    for (const s of [secret, token.setupToken, password, username, basicAuth(accessUrl).slice(6)]) expect(text).not.toContain(s);
    expect(rows.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(
      expect.arrayContaining([
        `POST /aggregation/v1/customers/${customer}/simplefin/tokens 201`,
        'POST /simplefin/claim/[redacted] 200',
        'GET /simplefin/accounts 200',
        'GET /simplefin/accounts 403',
      ]),
    );
    // The file's earlier tests claimed with this partner too, some refused, and rows come in no particular order.
    const claimRow = rows.find((r) => r.path === '/simplefin/claim/[redacted]' && r.status === 200)!;
    expect(claimRow.response_body).toBe('https://[redacted]@ledgerlink.example.org/simplefin');
    const read = rows.find((r) => r.path === '/simplefin/accounts' && r.status === 200)!;
    expect(read.request_headers).toContain('authorization: [redacted]');
    expect(pathOf(token.claimUrl)).toContain(secret);
  });
});

describe("the dashboard's SimpleFIN calls", () => {
  it("mint, list and revoke for the signed-in partner's customer, and answer 404 for another partner's", async () => {
    const customer = await addCustomer(ctx, partner);
    const mine = await dashboardSignIn(ctx, partner.partnerId, partner.partnerSecret);
    const theirs = await dashboardSignIn(ctx, other.partnerId, other.partnerSecret);
    const base = `/dashboard/api/customers/${customer}/simplefin`;
    const minted = await mine.call('POST', `${base}/tokens`, {});
    expect(minted.statusCode, minted.body).toBe(201);
    expect((await claim(ctx, minted.json().claimUrl)).statusCode).toBe(200);
    const listed = await mine.call('GET', `${base}/accesses`);
    expect(listed.statusCode).toBe(200);
    const [access] = listed.json().accesses;
    for (const [method, url, payload] of [
      ['POST', `${base}/tokens`, {}],
      ['GET', `${base}/accesses`, undefined],
      ['DELETE', `${base}/accesses/${access.id}`, undefined],
    ] as const) {
      const res = await theirs.call(method, url, payload);
      expect([res.statusCode, res.json().code], `${method} ${url}`).toEqual([404, '14001']);
    }
    expect((await mine.call('DELETE', `${base}/accesses/${access.id}`)).statusCode).toBe(204);
    expect((await mine.call('GET', `${base}/accesses`)).json().accesses[0].revokedDate).toBe(nowOf(ctx));
  });
});
