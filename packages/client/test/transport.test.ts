import { describe, expect, it } from 'vitest';
import { LedgerlinkClient, LedgerlinkError, isLedgerlinkError } from '@ledgerlink/client';
import { fakeService, json, ManualClock } from './fake-service.js';

const CREDENTIALS = { baseUrl: 'http://ledgerlink.test', appKey: 'key-1', partnerId: '4402958127364', partnerSecret: 'secret-1' };
const MINUTE = 60_000;
const customer = { id: '1005000000', username: 'customer_0001', firstName: 'Ada', lastName: 'Lovelace', type: 'testing', createdDate: 1795310000 };

function clientFor(service: ReturnType<typeof fakeService>, extra: { clock?: ManualClock; sleeps?: number[]; attempts?: number } = {}) {
  return new LedgerlinkClient({
    ...CREDENTIALS,
    fetch: service.fetch,
    clock: extra.clock ?? new ManualClock(),
    sleep: async (ms) => void extra.sleeps?.push(ms),
    ...(extra.attempts ? { retry: { attempts: extra.attempts } } : {}),
  });
}

const getCustomer = (client: LedgerlinkClient) => client.api.GET('/aggregation/v1/customers/{customerId}', { params: { path: { customerId: '1005000000' } } });

describe('the client transport', () => {
  it('authenticates with the app key and partner credentials, then sends both headers on every call', async () => {
    const service = fakeService(() => json(200, customer));
    const { data } = await getCustomer(clientFor(service));
    expect(data?.username).toBe('customer_0001');
    const [auth] = service.authentications();
    expect(auth!.method).toBe('POST');
    expect(auth!.headers.get('service-app-key')).toBe('key-1');
    expect(auth!.headers.get('service-app-token')).toBeNull();
    expect(JSON.parse(auth!.body)).toEqual({ partnerId: '4402958127364', partnerSecret: 'secret-1' });
    const [call] = service.calls();
    expect(call!.headers.get('service-app-key')).toBe('key-1');
    expect(call!.headers.get('service-app-token')).toBe('tok-1');
    expect(call!.headers.get('accept')).toBe('application/json');
  });

  it('shares one token across concurrent calls: one authentication for ten calls', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const service = fakeService(
      () => json(200, customer),
      async () => {
        await gate;
        return json(200, {});
      },
    );
    const client = clientFor(service);
    const calls = Array.from({ length: 10 }, () => getCustomer(client));
    release();
    await Promise.all(calls);
    expect(service.authentications()).toHaveLength(1);
    expect(new Set(service.calls().map((c) => c.headers.get('service-app-token')))).toEqual(new Set(['tok-1']));
  });

  it('renews the token once it is 90 minutes old, and not before', async () => {
    const clock = new ManualClock();
    const service = fakeService(() => json(200, customer));
    const client = clientFor(service, { clock });
    await getCustomer(client);
    clock.advance(89 * MINUTE);
    await getCustomer(client);
    expect(service.authentications()).toHaveLength(1);
    clock.advance(MINUTE);
    await Promise.all([getCustomer(client), getCustomer(client), getCustomer(client)]);
    expect(service.authentications()).toHaveLength(2);
    expect(service.calls().map((c) => c.headers.get('service-app-token'))).toEqual(['tok-1', 'tok-1', 'tok-2', 'tok-2', 'tok-2']);
  });

  it('authenticates again once when the service says the token expired (401, 10023), and repeats the call', async () => {
    const service = fakeService((req) =>
      req.headers.get('service-app-token') === 'tok-1' ? json(401, { code: '10023', message: 'Token expired' }) : json(200, customer),
    );
    const { data } = await getCustomer(clientFor(service));
    expect(data?.id).toBe('1005000000');
    expect(service.authentications()).toHaveLength(2);
    expect(service.calls().map((c) => c.headers.get('service-app-token'))).toEqual(['tok-1', 'tok-2']);
  });

  it('does not loop when the new token is refused as expired too', async () => {
    const service = fakeService(() => json(401, { code: '10023', message: 'Token expired' }));
    const error = await getCustomer(clientFor(service)).catch((e: unknown) => e);
    expect(isLedgerlinkError(error, '10023')).toBe(true);
    expect(service.authentications()).toHaveLength(2);
    expect(service.calls()).toHaveLength(2);
  });

  it('does not authenticate again for other 401 codes', async () => {
    const service = fakeService(() => json(401, { code: '10022', message: 'Token unknown' }));
    await expect(getCustomer(clientFor(service))).rejects.toMatchObject({ status: 401, code: '10022', message: 'Token unknown' });
    expect(service.authentications()).toHaveLength(1);
  });

  it('retries 429 after the Retry-After seconds, with the same body', async () => {
    const sleeps: number[] = [];
    const service = fakeService((_req, i) =>
      i === 0 ? json(429, { code: '10429', message: 'Too many requests' }, { 'retry-after': '2' }) : json(201, customer),
    );
    const created = await clientFor(service, { sleeps }).addTestingCustomer({ username: 'customer_0001' });
    expect(created.id).toBe('1005000000');
    expect(sleeps).toEqual([2000]);
    expect(service.calls().map((c) => JSON.parse(c.body))).toEqual([{ username: 'customer_0001' }, { username: 'customer_0001' }]);
  });

  it('understands Retry-After as an HTTP date', async () => {
    const sleeps: number[] = [];
    const clock = new ManualClock();
    const at = new Date(clock.now() + 7000).toUTCString();
    const service = fakeService((_req, i) =>
      i === 0 ? json(503, { code: '10503', message: 'Service unavailable' }, { 'retry-after': at }) : json(200, customer),
    );
    await getCustomer(clientFor(service, { sleeps, clock }));
    expect(sleeps).toEqual([7000]);
  });

  it('backs off exponentially on 503 without Retry-After, then throws the last error', async () => {
    const sleeps: number[] = [];
    const service = fakeService(() => json(503, { code: '10503', message: 'Service unavailable' }));
    const error = await getCustomer(clientFor(service, { sleeps })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerlinkError);
    expect(error).toMatchObject({ status: 503, code: '10503', operation: 'GET /aggregation/v1/customers/1005000000' });
    expect(service.calls()).toHaveLength(4);
    expect(sleeps).toHaveLength(3);
    // 500, 1000, 2000 ms, each shortened by at most 20 % of jitter.
    [500, 1000, 2000].forEach((base, i) => {
      expect(sleeps[i]).toBeGreaterThanOrEqual(base * 0.8);
      expect(sleeps[i]).toBeLessThanOrEqual(base);
    });
  });

  it('throws at once when Retry-After asks for longer than the longest wait', async () => {
    const sleeps: number[] = [];
    const service = fakeService(() => json(429, { code: '10429', message: 'Too many authentication attempts; retry in 60 s' }, { 'retry-after': '60' }));
    const error = await getCustomer(clientFor(service, { sleeps })).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: '10429', retryAfterSeconds: 60 });
    expect(sleeps).toEqual([]);
  });

  it('does not retry other failures, and turns them into typed errors', async () => {
    const service = fakeService(() => json(404, { code: 14001, message: 'Customer not found' }));
    const error = await getCustomer(clientFor(service)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerlinkError);
    expect(error).toMatchObject({ status: 404, code: '14001', message: 'Customer not found' });
    expect(service.calls()).toHaveLength(1);
  });

  it("keeps the status and text of an error body that is not the service's JSON", async () => {
    const service = fakeService(() => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
    await expect(getCustomer(clientFor(service))).rejects.toMatchObject({ status: 502, code: '', message: '<html>Bad gateway</html>' });
  });

  it('reports failed authentication as the error of the call that needed it', async () => {
    const service = fakeService(
      () => json(200, customer),
      () => json(401, { code: '10020', message: 'App key unknown' }),
    );
    await expect(getCustomer(clientFor(service))).rejects.toMatchObject({
      status: 401,
      code: '10020',
      operation: 'POST /aggregation/v2/partners/authentication',
    });
    expect(service.calls()).toHaveLength(0);
  });

  it('pages through transactions by start until moreAvailable is "false"', async () => {
    const all = Array.from({ length: 7 }, (_, i) => ({ id: 20000000000 + i }));
    const starts: string[] = [];
    const fetch = async (request: Request) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith('/authentication')) return json(200, { token: 't' });
      const start = Number(url.searchParams.get('start'));
      const limit = Number(url.searchParams.get('limit'));
      starts.push(`${start}/${limit}/${url.searchParams.get('fromDate')}`);
      const page = all.slice(start - 1, start - 1 + limit);
      return json(200, {
        found: all.length,
        displaying: page.length,
        moreAvailable: String(start - 1 + page.length < all.length),
        fromDate: '1',
        toDate: '2',
        sort: 'desc',
        transactions: page,
      });
    };
    const client = new LedgerlinkClient({ ...CREDENTIALS, fetch });
    const ids: number[] = [];
    for await (const t of client.customerTransactions('1005000000', { fromDate: 1, toDate: 2, limit: 3 })) ids.push(t.id);
    expect(ids).toEqual(all.map((t) => t.id));
    expect(starts).toEqual(['1/3/1', '4/3/1', '7/3/1']);
  });
});
