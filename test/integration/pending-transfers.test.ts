import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMPLEFIN_INSTITUTION_ID } from '../../src/connectors/simplefin/index.js';
import { PENDING_EXPIRY_DAYS } from '../../src/modules/aggregation/pending.service.js';
import { startRefreshScheduler } from '../../src/modules/aggregation/scheduler.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { newSigningKey } from '../../src/modules/txpush/keys.js';
import { insertSubscriptions } from '../../src/modules/txpush/repository.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { allTransactions, DAY, nowOf, refresh, type AccountJson, type TransactionJson } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, renewToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { startSimplefinBridge, type BridgeAccount, type BridgeTransaction, type SimplefinBridge } from '../helpers/simplefin-bridge.js';
import { ofxDay, ofxStatementFile } from '../helpers/statement-files.js';
import { uploadStatementOk } from '../helpers/statement-uploads.js';
import { startPushListener } from '../helpers/txpush.js';

type PushListener = Awaited<ReturnType<typeof startPushListener>>;
interface PushedEvent {
  class: string;
  type: string;
  records: TransactionJson[];
}

let ctx: TestContext;
let partner: TestPartner;
let bridge: SimplefinBridge;
let listener: PushListener;

const db = () => ctx.runtime.database.kysely;
const org = { name: 'First Example Bank', domain: 'first.example' };

beforeAll(async () => {
  listener = await startPushListener();
  ctx = await createTestContext();
  await ensureInstitutionCatalog(ctx.runtime.database);
  partner = await partnerWithToken(ctx, 'production');
  bridge = await startSimplefinBridge({ now: () => nowOf(ctx) });
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await bridge?.close();
  await listener?.close();
});

/** The clock moves by days and a token lasts two hours: a fresh one before each call that needs it. */
const caller = (who: TestPartner = partner) => renewToken(ctx, who);

const account = (id: string, name: string, transactions: BridgeTransaction[], extra: Partial<BridgeAccount> = {}): BridgeAccount => ({
  id,
  name,
  balance: '1000.00',
  'balance-date': nowOf(ctx) - 3600,
  org,
  transactions,
  ...extra,
});

/** A new active customer of `who` with the bridge's accounts linked through SimpleFIN and refreshed once. */
async function linkBridge(accounts: BridgeAccount[], who: TestPartner = partner): Promise<{ customerId: string; user: string; accounts: AccountJson[] }> {
  const customerId = await addCustomer(ctx, await caller(who), { type: 'active' });
  const token = bridge.createSetupToken({ accounts });
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/aggregation/v1/customers/${customerId}/institutions/${SIMPLEFIN_INSTITUTION_ID}/accounts/addall`,
    headers: who.headers,
    payload: { credentials: [{ id: `${SIMPLEFIN_INSTITUTION_ID}001`, value: token }] },
  });
  expect(res.statusCode, res.body).toBe(200);
  await refresh(ctx, who, customerId);
  return { customerId, user: bridge.userOf(token), accounts: res.json<{ accounts: AccountJson[] }>().accounts };
}

/** The listener hears the account's transaction events (inserted directly: real institutions' accounts need an https listener). */
async function listen(customerId: string, accountId: string, who: TestPartner = partner): Promise<void> {
  await insertSubscriptions(db(), [
    {
      partner_id: who.partnerId,
      customer_id: Number(customerId),
      account_id: Number(accountId),
      class: 'transaction',
      callback_url: listener.url,
      format: 'json',
      signing_key_encrypted: newSigningKey(ctx.runtime.keys).sealed,
      created_at: nowOf(ctx),
    },
  ]);
}

/** The transaction events the listener received after the first `since` notifications, once every delivery is made. */
async function pushedSince(since: number): Promise<PushedEvent[]> {
  await drainDeliveries(ctx.runtime, { workerId: 'test-worker', random: () => 0 });
  return listener
    .notifications()
    .slice(since)
    .map((r) => (JSON.parse(r.body) as { event: PushedEvent }).event);
}

const transactionsOf = async (customerId: string, who: TestPartner = partner) =>
  allTransactions(ctx, await caller(who), customerId, { fromDate: nowOf(ctx) - 60 * DAY, toDate: nowOf(ctx) + DAY });

const recordsOf = (events: PushedEvent[], type: string) => events.filter((e) => e.type === type).flatMap((e) => e.records);

describe('pending matched to posted', () => {
  it('replaces a pending transaction with its posted one under a new id and a tip: deleted for the pending, created naming it', async () => {
    const dinner = { id: 'P-1', posted: 0, amount: '-50.00', description: 'OLIVE GARDEN #0042', pending: true, transacted_at: nowOf(ctx) - 3600 };
    const { customerId, user, accounts } = await linkBridge([account('ACT-chk', 'Everyday Checking', [dinner])]);
    const [pending] = await transactionsOf(customerId);
    expect(pending).toMatchObject({ status: 'pending', amount: -50 });
    await listen(customerId, accounts[0]!.id);
    const since = listener.notifications().length;

    // The bank posts it a day later under another id, with a 20% tip.
    ctx.clock.advance(DAY * 1000);
    bridge.setAccounts(user, [
      account('ACT-chk', 'Everyday Checking', [
        { id: 'T-1', posted: nowOf(ctx) - 600, amount: '-60.00', description: 'OLIVE GARDEN 0042 ORLANDO FL', transacted_at: dinner.transacted_at },
      ]),
    ]);
    await refresh(ctx, await caller(), customerId);

    const after = await transactionsOf(customerId);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: 'active', amount: -60, pendingTransactionId: pending!.id });
    expect(after[0]!.id).not.toBe(pending!.id);
    const xml = await ctx.app.inject({
      method: 'GET',
      url: `/aggregation/v2/customers/${customerId}/transactions/${after[0]!.id}`,
      headers: { ...(await caller()).headers, accept: 'application/xml' },
    });
    expect(xml.body).toContain(`<pendingTransactionId>${pending!.id}</pendingTransactionId>`);
    const events = await pushedSince(since);
    expect(recordsOf(events, 'deleted').map((r) => r.id)).toEqual([pending!.id]);
    expect(recordsOf(events, 'created')).toEqual([expect.objectContaining({ id: after[0]!.id, pendingTransactionId: pending!.id })]);
    expect(recordsOf(events, 'modified')).toEqual([]);

    // The bank still listing the pending one for a while does not bring it back.
    bridge.addTransactions(user, 'ACT-chk', [dinner]);
    await refresh(ctx, await caller(), customerId);
    expect((await transactionsOf(customerId)).map((t) => t.id)).toEqual([after[0]!.id]);
  });

  it('keeps one transaction, modified, when the source posts it under the same id', async () => {
    const coffee = { id: 'S-1', posted: 0, amount: '-4.75', description: 'BLUE BOTTLE COFFEE', pending: true, transacted_at: nowOf(ctx) - 3600 };
    const { customerId, user, accounts } = await linkBridge([account('ACT-chk', 'Everyday Checking', [coffee])]);
    const [pending] = await transactionsOf(customerId);
    await listen(customerId, accounts[0]!.id);
    const since = listener.notifications().length;

    ctx.clock.advance(DAY * 1000);
    bridge.setAccounts(user, [account('ACT-chk', 'Everyday Checking', [{ ...coffee, pending: false, posted: nowOf(ctx) - 600, amount: '-5.25' }])]);
    await refresh(ctx, await caller(), customerId);

    const after = await transactionsOf(customerId);
    expect(after).toEqual([expect.objectContaining({ id: pending!.id, status: 'active', amount: -5.25 })]);
    expect(after[0]!.pendingTransactionId).toBeUndefined();
    const events = await pushedSince(since);
    expect(events.map((e) => e.type)).toEqual(['modified']);
  });

  it('does not let a posted transaction of another merchant or beyond the tolerance replace a pending one', async () => {
    const now = nowOf(ctx);
    const { customerId, user } = await linkBridge([
      account('ACT-chk', 'Everyday Checking', [
        { id: 'P-A', posted: 0, amount: '-20.00', description: 'SHELL OIL 5521', pending: true, transacted_at: now - 3600 },
        { id: 'P-B', posted: 0, amount: '-30.00', description: 'TRADER JOES #552', pending: true, transacted_at: now - 3600 },
      ]),
    ]);
    ctx.clock.advance(DAY * 1000);
    bridge.setAccounts(user, [
      account('ACT-chk', 'Everyday Checking', [
        { id: 'P-A', posted: 0, amount: '-20.00', description: 'SHELL OIL 5521', pending: true, transacted_at: now - 3600 },
        // Another merchant for the same amount as the pending one it does not replace, and the right one at twice the amount.
        { id: 'T-A', posted: nowOf(ctx) - 600, amount: '-30.00', description: 'WALGREENS 0311', transacted_at: now - 3600 },
        { id: 'T-B', posted: nowOf(ctx) - 600, amount: '-60.00', description: 'TRADER JOES #552', transacted_at: now - 3600 },
      ]),
    ]);
    await refresh(ctx, await caller(), customerId);
    const after = await transactionsOf(customerId);
    // P-B is gone because the source stopped listing it (as before), not replaced; P-A is still listed.
    expect(after.map((t) => [t.description, t.status, t.pendingTransactionId ?? null]).sort()).toEqual([
      ['SHELL OIL 5521', 'pending', null],
      ['TRADER JOES #552', 'active', null],
      ['WALGREENS 0311', 'active', null],
    ]);
  });

  it(`removes a pending transaction that never posts ${PENDING_EXPIRY_DAYS} days after its date, at refresh time, even while the source lists it`, async () => {
    const hold = { id: 'H-1', posted: 0, amount: '-100.00', description: 'HOTEL DEPOSIT HOLD', pending: true, transacted_at: nowOf(ctx) - 3600 };
    const { customerId, accounts } = await linkBridge([account('ACT-chk', 'Everyday Checking', [hold])]);
    const [pending] = await transactionsOf(customerId);
    await listen(customerId, accounts[0]!.id);

    ctx.clock.advance((PENDING_EXPIRY_DAYS - 1) * DAY * 1000);
    await refresh(ctx, await caller(), customerId);
    expect((await transactionsOf(customerId)).map((t) => t.id)).toEqual([pending!.id]);

    const since = listener.notifications().length;
    ctx.clock.advance(DAY * 1000);
    await refresh(ctx, await caller(), customerId);
    expect(await transactionsOf(customerId)).toEqual([]);
    expect(recordsOf(await pushedSince(since), 'deleted').map((r) => r.id)).toEqual([pending!.id]);

    // Listed again by the source, it is not stored again.
    await refresh(ctx, await caller(), customerId);
    expect(await transactionsOf(customerId)).toEqual([]);
  });

  it("removes a pending transaction that never posts on the scheduler's look, with nobody refreshing its login", async () => {
    const hold = { id: 'H-2', posted: 0, amount: '-75.00', description: 'RENTAL CAR HOLD', pending: true, transacted_at: nowOf(ctx) - 3600 };
    const { customerId, accounts } = await linkBridge([account('ACT-chk', 'Everyday Checking', [hold])]);
    const [pending] = await transactionsOf(customerId);
    await listen(customerId, accounts[0]!.id);
    // Nothing is due: only the expiry can remove it.
    await db().updateTable('institution_logins').set({ refresh_due_at: null }).execute();

    const since = listener.notifications().length;
    ctx.clock.advance((PENDING_EXPIRY_DAYS + 1) * DAY * 1000);
    const scheduler = startRefreshScheduler(ctx.app.engine, { workerId: 'expiry-worker', pollIntervalMs: 3_600_000 });
    try {
      await scheduler.wake();
    } finally {
      await scheduler.stop();
    }
    expect(await transactionsOf(customerId)).toEqual([]);
    expect(recordsOf(await pushedSince(since), 'deleted').map((r) => r.id)).toEqual([pending!.id]);
  });
});

describe('transfers between a customer’s own accounts', () => {
  it('pairs checking to savings by the closest date, marks both sides Transfer, and pairs a card payment as Credit Card Payment', async () => {
    const now = nowOf(ctx);
    const { customerId, accounts } = await linkBridge([
      account('ACT-chk', 'Everyday Checking', [
        { id: 'C-1', posted: now - 3 * DAY, amount: '-200.00', description: 'ONLINE TRANSFER TO SAVINGS 6164' },
        { id: 'C-2', posted: now - 2 * DAY, amount: '-300.00', description: 'PAYMENT TO PLATINUM CARD' },
        { id: 'C-3', posted: now - 20 * DAY, amount: '-200.00', description: 'RENT' },
      ]),
      account('ACT-sav', 'High Yield Savings', [{ id: 'S-1', posted: now - 2 * DAY, amount: '200.00', description: 'ONLINE TRANSFER FROM CHECKING 9194' }]),
      account(
        'ACT-card',
        'Platinum Card',
        [
          // Also 200 in, but a day further from the checking side than the savings one: the savings one wins.
          { id: 'K-1', posted: now - 5 * DAY, amount: '200.00', description: 'MERCHANT REFUND' },
          { id: 'K-2', posted: now - 1 * DAY, amount: '300.00', description: 'PAYMENT THANK YOU' },
        ],
        { balance: '-640.20' },
      ),
    ]);
    const typeOf = new Map(accounts.map((a) => [Number(a.id), a.name]));
    const list = await transactionsOf(customerId);
    const by = (description: string) => list.find((t) => t.description === description)!;
    const category = (t: TransactionJson) => (t.categorization as { category: string }).category;

    expect(by('ONLINE TRANSFER TO SAVINGS 6164').transferTransactionId).toBe(by('ONLINE TRANSFER FROM CHECKING 9194').id);
    expect(by('ONLINE TRANSFER FROM CHECKING 9194').transferTransactionId).toBe(by('ONLINE TRANSFER TO SAVINGS 6164').id);
    expect([category(by('ONLINE TRANSFER TO SAVINGS 6164')), category(by('ONLINE TRANSFER FROM CHECKING 9194'))]).toEqual(['Transfer', 'Transfer']);
    expect(by('PAYMENT TO PLATINUM CARD').transferTransactionId).toBe(by('PAYMENT THANK YOU').id);
    expect(typeOf.get(by('PAYMENT THANK YOU').accountId)).toBe('Platinum Card');
    expect([category(by('PAYMENT TO PLATINUM CARD')), category(by('PAYMENT THANK YOU'))]).toEqual(['Credit Card Payment', 'Credit Card Payment']);
    // Each transaction is in one pair at most; the rent is too far from any 200 in.
    expect(by('MERCHANT REFUND').transferTransactionId).toBeUndefined();
    expect(by('RENT').transferTransactionId).toBeUndefined();

    // XML answers carry the pair too.
    const outgoing = by('ONLINE TRANSFER TO SAVINGS 6164');
    const xml = await ctx.app.inject({
      method: 'GET',
      url: `/aggregation/v2/customers/${customerId}/transactions/${outgoing.id}`,
      headers: { ...(await caller()).headers, accept: 'application/xml' },
    });
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain(`<transferTransactionId>${outgoing.transferTransactionId}</transferTransactionId>`);

    // The other side deleted with its account: the pair's link goes, the category stays.
    const savings = accounts.find((a) => a.name === 'High Yield Savings')!;
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/aggregation/v1/customers/${customerId}/accounts/${savings.id}`,
      headers: (await caller()).headers,
    });
    expect(del.statusCode).toBe(204);
    const left = (await transactionsOf(customerId)).find((t) => t.description === 'ONLINE TRANSFER TO SAVINGS 6164')!;
    expect(left.transferTransactionId).toBeUndefined();
    expect(category(left)).toBe('Transfer');
  });

  it('pairs across sources: a statement file’s side pairs with a live side stored before, which gets a modified event', async () => {
    const now = nowOf(ctx);
    const { customerId, accounts } = await linkBridge([
      account('ACT-chk', 'Everyday Checking', [{ id: 'C-9', posted: now - DAY, amount: '-500.00', description: 'TRANSFER TO EXTERNAL ACCT 4521' }]),
    ]);
    await listen(customerId, accounts[0]!.id);
    const [live] = await transactionsOf(customerId);
    const since = listener.notifications().length;

    const day = Math.floor((now - Date.UTC(2026, 0, 1) / 1000) / DAY);
    const file = ofxStatementFile([
      { acctId: '99004521', transactions: [{ fitId: 'F-1', date: ofxDay(day), amount: 500, name: 'TRANSFER FROM FIRST EXAMPLE' }] },
    ]);
    await uploadStatementOk(ctx, await caller(), customerId, file);

    const list = await transactionsOf(customerId);
    const uploaded = list.find((t) => t.id !== live!.id)!;
    expect(uploaded).toMatchObject({ amount: 500, transferTransactionId: live!.id });
    expect(list.find((t) => t.id === live!.id)).toMatchObject({
      transferTransactionId: uploaded.id,
      categorization: expect.objectContaining({ category: 'Transfer' }),
    });
    expect(recordsOf(await pushedSince(since), 'modified')).toEqual([expect.objectContaining({ id: live!.id, transferTransactionId: uploaded.id })]);
  });

  it('pairs nothing across customers or partners', async () => {
    const now = nowOf(ctx);
    const other = await partnerWithToken(ctx, 'production');
    // A savings account of its own, so the customer's accounts are searched for the other side.
    const a = await linkBridge([
      account('ACT-chk', 'Everyday Checking', [{ id: 'X-1', posted: now - DAY, amount: '-75.00', description: 'TRANSFER TO SAVINGS' }]),
      account('ACT-own', 'Own Savings', []),
    ]);
    const b = await linkBridge([account('ACT-sav', 'Savings', [{ id: 'X-2', posted: now - DAY, amount: '75.00', description: 'TRANSFER FROM CHECKING' }])]);
    const c = await linkBridge(
      [account('ACT-sav', 'Savings', [{ id: 'X-3', posted: now - DAY, amount: '75.00', description: 'TRANSFER FROM CHECKING' }])],
      other,
    );
    for (const [customerId, who] of [
      [a.customerId, partner],
      [b.customerId, partner],
      [c.customerId, other],
    ] as const) {
      const list = await transactionsOf(customerId, who);
      expect(list).toHaveLength(1);
      expect(list[0]!.transferTransactionId).toBeUndefined();
    }
  });
});
