import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_DELAYS_SECONDS, RETRY_WINDOW_SECONDS } from '../../src/outbox/fail.js';
import { getDelivery } from '../../src/outbox/service.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { linkProfile, nowOf, refresh } from '../helpers/aggregation.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { createTestTransaction, startPushListener, subscribe } from '../helpers/txpush.js';

type PushListener = Awaited<ReturnType<typeof startPushListener>>;

let ctx: TestContext;
let partner: TestPartner;
let listener: PushListener;
let customerId: string;
let accountId: string;

beforeAll(async () => {
  // The listener verifies correctly but never acknowledges a notification.
  listener = await startPushListener(() => ({ status: 503, body: 'down for maintenance' }));
  ctx = await createTestContext({ LEDGERLINK_PUSH_EXTRA_PORTS: String(listener.port) });
  partner = await partnerWithToken(ctx);
  customerId = await addCustomer(ctx, partner);
  accountId = (await linkProfile(ctx, partner, customerId, 'profile_03', 102105)).find((a) => a.type === 'checking')!.id;
  await refresh(ctx, partner, customerId);
}, 120_000);

afterAll(async () => {
  await listener.close();
  await ctx.close();
});

describe('retries of a notification the listener does not acknowledge', () => {
  it('retry on the schedule for six hours from the first attempt, then the delivery is cancelled; the transaction stays retrievable', async () => {
    await subscribe(ctx, partner, customerId, accountId, listener.url);
    const created = await createTestTransaction(ctx, partner, customerId, accountId, {
      amount: -9.99,
      description: 'never acknowledged',
      transactionDate: nowOf(ctx),
    });
    const db = ctx.runtime.database.kysely;
    const [delivery] = await db
      .selectFrom('deliveries')
      .selectAll()
      .where('subscription_id', 'is not', null)
      .where('body', 'like', '%"class":"transaction"%')
      .execute();
    expect(delivery).toBeDefined();
    const id = Number(delivery!.id);
    // Without jitter (random 0) the waits are exactly the schedule's.
    const drain = () => drainDeliveries(ctx.runtime, { workerId: 'retry-test', random: () => 0 });

    const first = nowOf(ctx);
    const attemptTimes: number[] = [];
    for (let guard = 0; guard < 100; guard++) {
      const row = await db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      if (row.status === 'cancelled') break;
      expect(row.status).toBe('pending');
      // Just before it is due nothing happens; at the due time exactly one attempt is made.
      ctx.clock.set((Number(row.next_attempt_at) - 1) * 1000);
      await drain();
      expect((await getDelivery(db, id)).attempts.length).toBe(attemptTimes.length);
      ctx.clock.set(Number(row.next_attempt_at) * 1000);
      await drain();
      attemptTimes.push(nowOf(ctx));
    }

    const view = await getDelivery(db, id);
    expect(view.status).toBe('cancelled');
    expect(view.attempts.map((a) => a.attemptedAt)).toEqual(attemptTimes);
    expect(view.attempts.every((a) => a.statusCode === 503 && a.error === 'HTTP 503: down for maintenance; the listener must answer 200')).toBe(true);

    // The waits follow the schedule: 10 s, 30 s, 1, 2, 5, 10, 20 min, then every 30 min, the last one moved up to the six-hour mark.
    const waits = attemptTimes.slice(1).map((t, i) => t - attemptTimes[i]!);
    expect(attemptTimes[0]).toBe(first);
    expect(waits.slice(0, RETRY_DELAYS_SECONDS.length)).toEqual(RETRY_DELAYS_SECONDS);
    for (const w of waits.slice(RETRY_DELAYS_SECONDS.length, -1)) expect(w).toBe(1800);
    expect(waits.at(-1)!).toBeLessThanOrEqual(1800);
    expect(attemptTimes.at(-1)).toBe(first + RETRY_WINDOW_SECONDS);
    expect(view.cancelledAt).toBe(first + RETRY_WINDOW_SECONDS);
    expect(view.attempts.length).toBe(listener.notifications().filter((r) => r.eventId === delivery!.event_id).length);
    // Every attempt carried the same event id.
    expect(
      new Set(
        listener
          .notifications()
          .filter((r) => JSON.parse(r.body).event.class === 'transaction')
          .map((r) => r.eventId),
      ),
    ).toEqual(new Set([delivery!.event_id]));

    // Nothing more is attempted after cancellation.
    ctx.clock.advance(3600_000);
    expect(await drain()).toBe(0);

    // The transaction itself is still there (a new token: the first one expired hours ago).
    const auth = await ctx.app.inject({
      method: 'POST',
      url: '/aggregation/v2/partners/authentication',
      headers: { 'service-app-key': partner.appKey },
      payload: { partnerId: partner.partnerId, partnerSecret: partner.partnerSecret },
    });
    const read = await ctx.app.inject({
      url: `/aggregation/v2/customers/${customerId}/transactions/${created.id}`,
      headers: { ...partner.headers, 'service-app-token': auth.json<{ token: string }>().token },
    });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: created.id, amount: -9.99, description: 'never acknowledged' });
  });
});
