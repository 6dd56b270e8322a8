import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueDelivery } from '../../src/outbox/enqueue.js';
import { LISTENER_LEASE_SECONDS } from '../../src/outbox/listeners.js';
import { generateSigningSecret } from '../../src/outbox/sign.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';

/**
 * The CLI's client API (/cli/v1): each partner sees and changes only its own request log, deliveries, mailbox and
 * listeners; bad input is a 4xx with a catalogue code; none of these calls lands in the request log.
 */
let ctx: TestContext;
let a: TestPartner;
let b: TestPartner;
let production: TestPartner;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function call(who: TestPartner, method: Method, url: string, payload?: object, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method, url, headers: { ...who.headers, ...headers }, ...(payload !== undefined ? { payload } : {}) });
}

async function ok<T = any>(who: TestPartner, method: Method, url: string, payload?: object): Promise<T> {
  const res = await call(who, method, url, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.statusCode === 204 ? (undefined as T) : res.json<T>();
}

/** The answer's status and error code. */
async function refused(who: TestPartner, method: Method, url: string, payload?: object, headers: Record<string, string> = {}) {
  const res = await call(who, method, url, payload, headers);
  return [res.statusCode, res.json<{ code: string }>().code];
}

const webhook = (who: TestPartner, secret = generateSigningSecret()) =>
  enqueueDelivery(ctx.runtime.database.kysely, ctx.runtime, {
    kind: 'webhook',
    partnerId: who.partnerId,
    url: 'http://127.0.0.1:9/partner-hook',
    body: JSON.stringify({ eventType: 'added', customerId: '1005000000' }),
    contentType: 'application/json',
    signingSecret: secret,
  });

const deliveryRow = (id: number) => ctx.runtime.database.kysely.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const copiesTo = (target: string) => ctx.runtime.database.kysely.selectFrom('deliveries').selectAll().where('target', '=', target).orderBy('id').execute();

beforeAll(async () => {
  ctx = await createTestContext();
  // Signatures carry the clock's time; standardwebhooks checks it against the real one.
  ctx.clock.set(Date.now());
  a = await partnerWithToken(ctx);
  b = await partnerWithToken(ctx);
  production = await partnerWithToken(ctx, 'production');
}, 60_000);

afterAll(async () => {
  await ctx.close();
});

describe('GET /cli/v1/requests', () => {
  it("answers the partner's own API requests, oldest first, after an id and by status, and never lists its own calls", async () => {
    await call(a, 'GET', '/aggregation/v1/customers/404404');
    await call(a, 'GET', '/aggregation/v1/partners/me');
    await call(b, 'GET', '/aggregation/v1/customers/505505');
    await ctx.app.requestLog.flush();
    const { requests } = await ok(a, 'GET', '/cli/v1/requests?limit=1000');
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.every((r: { partnerId: string }) => r.partnerId === a.partnerId)).toBe(true);
    expect(requests.map((r: { path: string }) => r.path)).not.toContain('/aggregation/v1/customers/505505');
    expect(requests.slice(-2).map((r: { path: string; status: number; errorCode: string | null }) => [r.path, r.status, r.errorCode])).toEqual([
      ['/aggregation/v1/customers/404404', 404, '14001'],
      ['/aggregation/v1/partners/me', 200, null],
    ]);
    const ids = requests.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));

    const after = await ok(a, 'GET', `/cli/v1/requests?afterId=${ids.at(-2)}`);
    expect(after.requests.map((r: { path: string }) => r.path)).toEqual(['/aggregation/v1/partners/me']);
    const failed = await ok(a, 'GET', '/cli/v1/requests?status=4xx&limit=1000');
    expect(failed.requests.length).toBeGreaterThan(0);
    expect(failed.requests.every((r: { status: number }) => r.status >= 400 && r.status < 500)).toBe(true);

    await ctx.app.requestLog.flush();
    const logged = await ctx.runtime.database.kysely.selectFrom('request_log').select('path').execute();
    expect(logged.filter((r) => r.path.startsWith('/cli/'))).toEqual([]);
  });

  it('refuses a status filter that is no status, with the catalogue code', async () => {
    expect(await refused(a, 'GET', '/cli/v1/requests?status=teapot')).toEqual([400, '10010']);
  });
});

describe('GET /cli/v1/deliveries and POST /cli/v1/deliveries/{id}/redeliver', () => {
  it("list and redeliver the partner's own deliveries; another partner's look unknown and stay as they are", async () => {
    const mine = await webhook(a);
    const theirs = await webhook(b);
    const listed = await ok(a, 'GET', '/cli/v1/deliveries?limit=1000');
    const ids = listed.deliveries.map((d: { id: number }) => d.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(listed.deliveries.find((d: { id: number }) => d.id === mine.id)).toMatchObject({ partnerId: a.partnerId, kind: 'webhook', state: 'pending' });
    const byEvent = await ok(a, 'GET', `/cli/v1/deliveries?eventId=${mine.eventId}`);
    expect(byEvent.deliveries.map((d: { id: number }) => d.id)).toEqual([mine.id]);

    const before = await deliveryRow(theirs.id);
    expect(await refused(a, 'POST', `/cli/v1/deliveries/${theirs.id}/redeliver`)).toEqual([404, '14001']);
    expect(await deliveryRow(theirs.id)).toEqual(before);
    const again = await ok(a, 'POST', `/cli/v1/deliveries/${mine.id}/redeliver`);
    expect(again.delivery).toMatchObject({ id: mine.id, eventId: mine.eventId });
  });

  it('refuse an unknown state and a delivery id that is no id', async () => {
    expect(await refused(a, 'GET', '/cli/v1/deliveries?state=lost')).toEqual([400, '10010']);
    expect(await refused(a, 'POST', '/cli/v1/deliveries/abc/redeliver')).toEqual([400, '10010']);
  });
});

describe('GET /cli/v1/mail', () => {
  it("answers the partner's own mailbox only", async () => {
    for (const who of [a, b])
      await enqueueDelivery(ctx.runtime.database.kysely, ctx.runtime, {
        kind: 'email',
        partnerId: who.partnerId,
        to: 'consumer@example.com',
        subject: `For ${who.partnerId}`,
        text: 'Open the link',
      });
    await drainDeliveries(ctx.runtime, { workerId: 'cli-api-test', random: () => 0 });
    const { messages } = await ok(a, 'GET', '/cli/v1/mail');
    expect(messages.map((m: { subject: string; partnerId: string }) => [m.subject, m.partnerId])).toEqual([[`For ${a.partnerId}`, a.partnerId]]);
    expect(await refused(a, 'GET', '/cli/v1/mail?limit=0')).toEqual([400, '41004']);
  });
});

describe('listeners', () => {
  it('hold a signed copy of each push and webhook for the listener, which takes it, reports it, and is retried on the outbox schedule', async () => {
    const listener = await ok(a, 'POST', '/cli/v1/listeners', { partnerId: a.partnerId });
    expect(listener).toMatchObject({ partnerId: a.partnerId, target: `listen://${listener.listenerId}` });
    const secret = generateSigningSecret();
    const original = await webhook(a, secret);
    // The worker sends the original and never the copy: that is the listener's to take.
    await drainDeliveries(ctx.runtime, { workerId: 'cli-api-test', random: () => 0 });
    const [copy] = await copiesTo(listener.target);
    expect(copy).toMatchObject({ event_id: original.eventId, status: 'pending', attempts: 0 });

    // Another partner can neither take, report, nor remove it.
    const url = `/cli/v1/listeners/${listener.listenerId}`;
    expect(await refused(b, 'POST', `${url}/poll`)).toEqual([404, '14001']);
    expect(await refused(b, 'POST', `${url}/deliveries/${copy!.id}/outcome`, { claim: 'x', statusCode: 200, error: null, latencyMs: 1 })).toEqual([
      404,
      '14001',
    ]);
    expect(await refused(b, 'DELETE', url)).toEqual([404, '14001']);
    expect(await deliveryRow(copy!.id)).toEqual(copy);

    const first = await ok(a, 'POST', `${url}/poll`);
    expect(first.deliveries).toHaveLength(1);
    const held = first.deliveries[0];
    expect(held).toMatchObject({ deliveryId: copy!.id, kind: 'webhook', eventId: original.eventId, attempt: 1 });
    const headers = Object.fromEntries(held.headers.map((h: { name: string; value: string }) => [h.name, h.value]));
    expect(headers['content-type']).toBe('application/json');
    // Signed with the delivery's own secret, as the worker would have sent it.
    expect(new Webhook(secret).verify(held.body, headers)).toMatchObject({ eventType: 'added' });
    expect((await ok(a, 'POST', `${url}/poll`)).deliveries).toEqual([]);

    const failed = await ok(a, 'POST', `${url}/deliveries/${copy!.id}/outcome`, {
      claim: held.claim,
      statusCode: 503,
      error: 'HTTP 503 from http://localhost:3000/hook',
      latencyMs: 12,
      response: 'warming up',
    });
    expect(failed).toEqual({ deliveryId: copy!.id, state: 'retrying' });
    expect(await refused(a, 'POST', `${url}/deliveries/${copy!.id}/outcome`, { claim: held.claim, statusCode: 200, error: null, latencyMs: 1 })).toEqual([
      409,
      '14096',
    ]);
    // Due again only at its next retry time (10 seconds after the first attempt at most).
    expect((await ok(a, 'POST', `${url}/poll`)).deliveries).toEqual([]);
    ctx.clock.advance(15_000);
    const second = (await ok(a, 'POST', `${url}/poll`)).deliveries[0];
    expect(second).toMatchObject({ deliveryId: copy!.id, attempt: 2 });
    expect(await ok(a, 'POST', `${url}/deliveries/${copy!.id}/outcome`, { claim: second.claim, statusCode: 200, error: null, latencyMs: 3 })).toEqual({
      deliveryId: copy!.id,
      state: 'delivered',
    });
    const attempts = await ctx.runtime.database.kysely.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', copy!.id).orderBy('id').execute();
    expect(attempts.map((x) => [x.worker_id, x.status_code, x.error])).toEqual([
      [listener.target, 503, 'HTTP 503 from http://localhost:3000/hook'],
      [listener.target, 200, null],
    ]);
    const listed = await ok(a, 'GET', `/cli/v1/deliveries?target=${encodeURIComponent(listener.target)}`);
    expect(listed.deliveries.map((d: { id: number; state: string }) => [d.id, d.state])).toEqual([[copy!.id, 'delivered']]);
    await ok(a, 'DELETE', url);
  });

  it('give a waiting poll what is queued while it waits', async () => {
    const listener = await ok(a, 'POST', '/cli/v1/listeners', { partnerId: a.partnerId });
    const polling = call(a, 'POST', `/cli/v1/listeners/${listener.listenerId}/poll?wait=25`);
    const queued = await webhook(a);
    const res = await polling;
    expect(res.statusCode).toBe(200);
    expect(res.json().deliveries.map((d: { eventId: string }) => d.eventId)).toEqual([queued.eventId]);
    await ok(a, 'DELETE', `/cli/v1/listeners/${listener.listenerId}`);
  });

  it('once removed or lapsed, are gone, and what was held for them is cancelled rather than left pending', async () => {
    const removed = await ok(a, 'POST', '/cli/v1/listeners', { partnerId: a.partnerId });
    const lapsed = await ok(a, 'POST', '/cli/v1/listeners', { partnerId: a.partnerId });
    await webhook(a);
    await ok(a, 'DELETE', `/cli/v1/listeners/${removed.listenerId}`);
    expect((await copiesTo(removed.target)).map((c) => c.status)).toEqual(['cancelled']);
    expect(await refused(a, 'DELETE', `/cli/v1/listeners/${removed.listenerId}`)).toEqual([404, '14001']);

    ctx.clock.advance((LISTENER_LEASE_SECONDS + 1) * 1000);
    expect(await refused(a, 'POST', `/cli/v1/listeners/${lapsed.listenerId}/poll`)).toEqual([404, '14001']);
    expect((await copiesTo(lapsed.target)).map((c) => c.status)).toEqual(['pending']);
    // The next registration retires it.
    const next = await ok(a, 'POST', '/cli/v1/listeners', { partnerId: a.partnerId });
    expect((await copiesTo(lapsed.target)).map((c) => [c.status, c.last_error])).toEqual([['cancelled', 'the ledgerlink listen it was held for stopped']]);
    await ok(a, 'DELETE', `/cli/v1/listeners/${next.listenerId}`);
  });

  it('are refused for another partner, a production-plan partner, and bad input', async () => {
    expect(await refused(a, 'POST', '/cli/v1/listeners', { partnerId: b.partnerId })).toEqual([400, '10010']);
    expect(await refused(a, 'POST', '/cli/v1/listeners', {})).toEqual([400, '10005']);
    expect(await refused(production, 'POST', '/cli/v1/listeners', { partnerId: production.partnerId })).toEqual([403, '14090']);
    const listener = await ok(a, 'POST', '/cli/v1/listeners', { partnerId: a.partnerId });
    const url = `/cli/v1/listeners/${listener.listenerId}`;
    expect(await refused(a, 'POST', `${url}/poll?wait=26`)).toEqual([400, '10010']);
    expect(await refused(a, 'POST', `${url}/deliveries/1/outcome`, { claim: 'x', statusCode: 999, error: null, latencyMs: 1 })).toEqual([400, '10010']);
    expect(await refused(a, 'POST', '/cli/v1/listeners/abc/poll')).toEqual([400, '10010']);
    await ok(a, 'DELETE', url);
  });
});

describe('the CLI API as a whole', () => {
  it('answers JSON only and needs the app key and a token', async () => {
    expect(await refused(a, 'GET', '/cli/v1/mail', undefined, { accept: 'application/xml' })).toEqual([406, '10043']);
    const xml = await ctx.app.inject({
      method: 'POST',
      url: '/cli/v1/listeners',
      headers: { ...a.headers, 'content-type': 'application/xml' },
      payload: `<listener><partnerId>${a.partnerId}</partnerId></listener>`,
    });
    expect([xml.statusCode, xml.json().code]).toEqual([415, '10041']);
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/cli/v1/requests' });
    expect([anonymous.statusCode, anonymous.json().code]).toEqual([401, '10026']);
    const noToken = await ctx.app.inject({ method: 'GET', url: '/cli/v1/requests', headers: { 'service-app-key': a.appKey } });
    expect([noToken.statusCode, noToken.json().code]).toEqual([401, '10024']);
  });
});
