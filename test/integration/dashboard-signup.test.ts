import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { SAME_ORIGIN, sessionCookie } from '../helpers/dashboard.js';

const SECRET = 'Chosen-secret-2026';

describe('dashboard sign-up as an operator setting', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  const signUp = (c: TestContext) =>
    c.app.inject({ method: 'POST', url: '/dashboard/api/signup', headers: SAME_ORIGIN, payload: { name: 'Stranger', partnerSecret: SECRET } });
  const settings = async (c: TestContext) => (await c.app.inject({ url: '/dashboard/api/settings', headers: { accept: 'application/json' } })).json();
  const partners = async (c: TestContext) =>
    Number(
      (
        await c.runtime.database.kysely
          .selectFrom('partners')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses sign-up in production mode by default with 403 14104, creating no partner and no session', async () => {
    ctx = await createTestContext({ LEDGERLINK_MODE: 'production' });
    const res = await signUp(ctx);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: '14104', message: expect.stringMatching(/turned off/) });
    expect(sessionCookie(res)).toBeUndefined();
    expect(await partners(ctx)).toBe(0);
    expect(await ctx.runtime.database.kysely.selectFrom('dashboard_sessions').selectAll().execute()).toEqual([]);
    // Signed out, the page learns that it should not offer sign-up.
    expect(await settings(ctx)).toEqual({ signUp: false });
  });

  it('offers sign-up in sandbox mode by default, and says so to the signed-out page', async () => {
    ctx = await createTestContext();
    expect(await settings(ctx)).toEqual({ signUp: true });
    expect((await signUp(ctx)).statusCode).toBe(200);
    expect(await partners(ctx)).toBe(1);
  });

  it('turns sign-up off in sandbox mode with LEDGERLINK_DASHBOARD_SIGNUP=off', async () => {
    ctx = await createTestContext({ LEDGERLINK_DASHBOARD_SIGNUP: 'off' });
    expect((await signUp(ctx)).json().code).toBe('14104');
    expect(await settings(ctx)).toEqual({ signUp: false });
    expect(await partners(ctx)).toBe(0);
  });

  it('turns sign-up on in production mode with LEDGERLINK_DASHBOARD_SIGNUP=on', async () => {
    ctx = await createTestContext({ LEDGERLINK_MODE: 'production', LEDGERLINK_DASHBOARD_SIGNUP: 'on' });
    expect(await settings(ctx)).toEqual({ signUp: true });
    const res = await signUp(ctx);
    expect(res.statusCode).toBe(200);
    expect(res.json().partner.plan).toBe('testdrive');
  });
});
