import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reserveAuthentication } from '../../src/modules/partners/repository.js';
import { createPartner, type PartnerCredentials } from '../../src/modules/partners/service.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { dashboardSignIn, SAME_ORIGIN } from '../helpers/dashboard.js';

// Every reservation of an attempt counted, so a test can tell an answer given at once from one that waited for a slot.
vi.mock('../../src/modules/partners/repository.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/modules/partners/repository.js')>();
  return { ...original, reserveAuthentication: vi.fn(original.reserveAuthentication) };
});

const WRONG = 'Wrong-secret-1234';

interface Answer {
  status: number;
  code: string | undefined;
  message: string | undefined;
}

/** Fires `size` authentications at once, all with wrong secrets except the one in the middle; answers in order. */
async function burst(
  size: number,
  send: (secret: string, i: number) => Promise<{ statusCode: number; json(): { code?: string; message?: string } }>,
  rightSecret: string,
): Promise<{ answers: Answer[]; right: Answer }> {
  const middle = Math.floor(size / 2);
  const responses = await Promise.all(Array.from({ length: size }, (_, i) => send(i === middle ? rightSecret : WRONG, i)));
  const answers = responses.map((r) => ({ status: r.statusCode, code: r.json().code, message: r.json().message }));
  return { answers, right: answers[middle]! };
}

describe('parallel guesses against the lock-out', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // The rate limits are a defence of their own: lifted here so that the lock-out alone is under test.
    ctx = await createTestContext({ LEDGERLINK_AUTH_RATE_LIMIT_PER_IP: '1000000', LEDGERLINK_AUTH_RATE_LIMIT_PER_APP_KEY: '1000000' });
  });
  afterAll(() => ctx.close());

  const apiAuth = (creds: PartnerCredentials) => (partnerSecret: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/aggregation/v2/partners/authentication',
      headers: { 'service-app-key': creds.appKey, accept: 'application/json' },
      payload: { partnerId: creds.partnerId, partnerSecret },
    });
  const partnerRow = (id: string) =>
    ctx.runtime.database.kysely.selectFrom('partners').select(['failed_auth_count', 'locked_at']).where('id', '=', id).executeTakeFirstOrThrow();

  it.each([
    [50, false],
    [300, false],
    [50, true],
    [300, true],
  ])(
    'API: %i parallel wrong secrets with the right one in the middle (signed in just before: %s) check five, then all get 10027',
    async (size, signedInBefore) => {
      const creds = await createPartner(ctx.runtime, { name: 'Burst partner' });
      const send = apiAuth(creds);
      // A right secret checked just before is remembered: that fast path may bypass neither the lock nor the count.
      if (signedInBefore) expect((await send(creds.partnerSecret)).statusCode).toBe(200);
      const { answers, right } = await burst(size, send, creds.partnerSecret);
      const checked = answers.filter((a) => a.code === '10001');
      expect(checked).toHaveLength(5);
      // Each checked guess was told how many were left, in whatever order their checks ended.
      expect(checked.map((a) => a.message).sort()).toEqual([
        'Invalid credentials (1 attempt left before the partner is locked)',
        'Invalid credentials (2 attempts left before the partner is locked)',
        'Invalid credentials (3 attempts left before the partner is locked)',
        'Invalid credentials (4 attempts left before the partner is locked)',
        'Invalid credentials; the partner is now locked',
      ]);
      expect(answers.filter((a) => a.code !== '10001').every((a) => a.status === 401 && a.code === '10027')).toBe(true);
      expect(right).toMatchObject({ status: 401, code: '10027' });
      expect(await partnerRow(creds.partnerId)).toMatchObject({ failed_auth_count: 5, locked_at: expect.anything() });
    },
  );

  it.each([50, 300])(
    'dashboard: %i parallel wrong sign-ins with the right one in the middle check five, then all get 429; the API stays open',
    async (size) => {
      const creds = await createPartner(ctx.runtime, { name: 'Dashboard burst partner' });
      expect((await apiAuth(creds)(creds.partnerSecret)).statusCode).toBe(200);
      // Addresses of their own per request, so the partner id's throttle is the one under test.
      const send = (partnerSecret: string, i: number) =>
        ctx.app.inject({
          method: 'POST',
          url: '/dashboard/api/signin',
          headers: SAME_ORIGIN,
          remoteAddress: `127.0.${size === 50 ? 2 : 3}.${i % 250}`,
          payload: { partnerId: creds.partnerId, partnerSecret },
        });
      const { answers, right } = await burst(size, send, creds.partnerSecret);
      expect(answers.filter((a) => a.code === '10001')).toHaveLength(5);
      expect(answers.filter((a) => a.code !== '10001').every((a) => a.status === 429 && a.code === '14105')).toBe(true);
      expect(right).toMatchObject({ status: 429, code: '14105' });
      expect(await partnerRow(creds.partnerId)).toEqual({ failed_auth_count: 0, locked_at: null });
      expect((await apiAuth(creds)(creds.partnerSecret)).statusCode).toBe(200);
      const throttle = await ctx.runtime.database.kysely
        .selectFrom('sign_in_throttle')
        .select(['failures', 'pending', 'rounds'])
        .where('key', '=', `partner:${creds.partnerId}`)
        .executeTakeFirstOrThrow();
      expect(throttle).toEqual({ failures: 0, pending: 0, rounds: 1 });
    },
  );

  it("a burst of the same right secret from the partner's own clients all succeed: they wait for a slot, none is refused", async () => {
    const creds = await createPartner(ctx.runtime, { name: 'Busy partner' });
    const answers = await Promise.all(Array.from({ length: 40 }, () => apiAuth(creds)(creds.partnerSecret)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(40).fill(200));
    expect(await partnerRow(creds.partnerId)).toEqual({ failed_auth_count: 0, locked_at: null });
  });

  describe('reservations nobody decided', () => {
    const setPending = (id: string, pending: number) =>
      ctx.runtime.database.kysely
        .updateTable('partners')
        .set({ auth_pending: pending, auth_pending_at: Math.floor(ctx.clock.now() / 1000) })
        .where('id', '=', id)
        .execute();
    const pendingOf = async (id: string) =>
      Number((await ctx.runtime.database.kysely.selectFrom('partners').select('auth_pending').where('id', '=', id).executeTakeFirstOrThrow()).auth_pending);

    it('lapse two minutes after the count last rose from zero, even while the partner keeps authenticating', async () => {
      const creds = await createPartner(ctx.runtime, { name: 'Leaked slot partner' });
      // A process died while checking a secret: its reservation was never decided.
      await setPending(creds.partnerId, 1);
      for (let minute = 1; minute <= 3; minute++) {
        ctx.clock.advance(60_000);
        expect((await apiAuth(creds)(creds.partnerSecret)).statusCode).toBe(200);
      }
      expect(await pendingOf(creds.partnerId)).toBe(0);
    });

    it('never block a partner for good: five of them make attempts wait, then answer 429 10028 until they lapse', { timeout: 30_000 }, async () => {
      const creds = await createPartner(ctx.runtime, { name: 'Jammed partner' });
      await setPending(creds.partnerId, 5);
      const busy = await apiAuth(creds)(creds.partnerSecret);
      expect(busy.statusCode).toBe(429);
      expect(busy.json().code).toBe('10028');
      expect(busy.headers['retry-after']).toBe('1');
      ctx.clock.advance(121_000);
      expect((await apiAuth(creds)(creds.partnerSecret)).statusCode).toBe(200);
    });
  });

  it('takes a failure count already at the limit as a lock (the limit was lowered since), not as attempts in progress', async () => {
    const creds = await createPartner(ctx.runtime, { name: 'Lowered limit partner' });
    await ctx.runtime.database.kysely.updateTable('partners').set({ failed_auth_count: 6 }).where('id', '=', creds.partnerId).execute();
    const reservations = vi.mocked(reserveAuthentication);
    reservations.mockClear();
    const res = await apiAuth(creds)(creds.partnerSecret);
    expect(res.json().code).toBe('10027');
    // Answered at once, not after waiting for a slot that never frees: one reservation tried, none again after a pause.
    expect(reservations.mock.calls.filter(([, partnerId]) => partnerId === creds.partnerId)).toHaveLength(1);
  });

  it('throttles guesses at the dashboard unlock like sign-ins: after five wrong secrets even the right one waits', async () => {
    const creds = await createPartner(ctx.runtime, { name: 'Unlock guessing partner' });
    const browser = await dashboardSignIn(ctx, creds.partnerId, creds.partnerSecret);
    for (let i = 0; i < 5; i++) await apiAuth(creds)('Wrong-secret-1234');
    for (let i = 0; i < 5; i++) expect((await browser.call('POST', '/dashboard/api/unlock', { partnerSecret: WRONG })).json().code).toBe('10001');
    const refused = await browser.call('POST', '/dashboard/api/unlock', { partnerSecret: creds.partnerSecret });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('14105');
    expect(await partnerRow(creds.partnerId)).toMatchObject({ locked_at: expect.anything() });
  });
});
