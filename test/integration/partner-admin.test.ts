import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/main/cli/args.js';
import { main } from '../../src/main/cli/run.js';
import { sandboxPartner } from '../../src/main/cli/sandbox-partner.js';
import { createPartner, listPartners, resetPartnerSecret, unlockPartner } from '../../src/modules/partners/service.js';
import * as repo from '../../src/modules/partners/repository.js';
import { seedCustomers } from '../../src/modules/sandbox/seed.service.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { tempDataDir } from '../helpers/cli.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';

const AUTH = '/aggregation/v2/partners/authentication';
const ME = '/aggregation/v1/partners/me';

describe('partner list and secret reset (service)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const authenticate = (p: TestPartner, partnerSecret: string) =>
    ctx.app.inject({ method: 'POST', url: AUTH, headers: { 'service-app-key': p.appKey }, payload: { partnerId: p.partnerId, partnerSecret } });
  const me = (p: TestPartner, token = p.token) =>
    ctx.app.inject({ method: 'GET', url: ME, headers: { 'service-app-key': p.appKey, 'service-app-token': token, accept: 'application/json' } });

  it('lists every partner with id, name, plan, creation date and lock, never a secret or key', async () => {
    const before = (await listPartners(ctx.runtime)).length;
    const a = await createPartner(ctx.runtime, { name: 'Listed A' });
    const b = await createPartner(ctx.runtime, { name: 'Listed B', plan: 'production' });
    await repo.updatePartner(ctx.runtime.database.kysely, b.partnerId, { locked_at: 1 }, 2);
    const list = await listPartners(ctx.runtime);
    expect(list).toHaveLength(before + 2);
    expect(list.find((p) => p.partnerId === a.partnerId)).toEqual({
      partnerId: a.partnerId,
      name: 'Listed A',
      plan: 'testdrive',
      createdAt: expect.any(Number),
      locked: false,
    });
    expect(list.find((p) => p.partnerId === b.partnerId)).toMatchObject({ plan: 'production', locked: true });
    const text = JSON.stringify(list);
    for (const secret of [a.partnerSecret, a.appKey, b.partnerSecret, b.appKey]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/hash|secret|appKey/i);
  });

  it('reset: the old secret is refused at once, the new one (policy-conforming) works, tokens are revoked', async () => {
    const p = await partnerWithToken(ctx);
    // The old secret has been verified (and remembered) before the reset.
    expect((await authenticate(p, p.partnerSecret)).statusCode).toBe(200);
    expect((await me(p)).statusCode).toBe(200);
    const reset = await resetPartnerSecret(ctx.runtime, p.partnerId);
    expect(reset).toMatchObject({ partnerId: p.partnerId, revokedTokens: 2, endedSessions: 0, locked: false });
    expect(reset.partnerSecret).toMatch(/^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9!@#$%&*_+-]{20}$/);
    expect(reset.partnerSecret).not.toBe(p.partnerSecret);
    expect((await me(p)).json().code).toBe('10022');
    expect((await authenticate(p, p.partnerSecret)).statusCode).toBe(401);
    const fresh = await authenticate(p, reset.partnerSecret);
    expect(fresh.statusCode).toBe(200);
    expect((await me(p, fresh.json<{ token: string }>().token)).statusCode).toBe(200);
  });

  it('reset with keepTokens leaves the live tokens working; a lock stays until unlocked; an unknown partner is not found', async () => {
    const p = await partnerWithToken(ctx);
    await repo.updatePartner(ctx.runtime.database.kysely, p.partnerId, { locked_at: 1 }, 2);
    const reset = await resetPartnerSecret(ctx.runtime, p.partnerId, { keepTokens: true });
    expect(reset).toMatchObject({ revokedTokens: 0, locked: true });
    expect((await me(p)).statusCode).toBe(200);
    expect((await authenticate(p, reset.partnerSecret)).json().code).toBe('10027');
    await unlockPartner(ctx.runtime, p.partnerId);
    expect((await authenticate(p, reset.partnerSecret)).statusCode).toBe(200);
    await expect(resetPartnerSecret(ctx.runtime, '9999999999999')).rejects.toMatchObject({ message: 'Partner 9999999999999 not found' });
  });

  it("sandbox commands take the customer's partner among several; a --partner that is not the customer's is refused", async () => {
    const db = ctx.runtime.database.kysely;
    const a = await createPartner(ctx.runtime, { name: 'A' });
    const b = await createPartner(ctx.runtime, { name: 'B' });
    const seeded = await seedCustomers(ctx.runtime, {
      partnerId: b.partnerId,
      plan: 'testdrive',
      customers: 1,
      profile: 'profile_03',
      usernamePrefix: 'owner',
    });
    const customerId = String(seeded.firstCustomerId);
    expect(await sandboxPartner(db, undefined, 'u', customerId)).toEqual({ partnerId: b.partnerId, plan: 'testdrive', source: 'customer' });
    expect(await sandboxPartner(db, b.partnerId, 'u', customerId)).toMatchObject({ partnerId: b.partnerId, source: 'option' });
    const mismatch = await sandboxPartner(db, a.partnerId, 'u', customerId).catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(UsageError);
    expect((mismatch as UsageError).message).toBe(`customer ${customerId} belongs to partner ${b.partnerId}, not to partner ${a.partnerId}`);
    // An unknown customer names no partner: with several, the command asks which.
    const unknown = await sandboxPartner(db, undefined, 'u', '1').catch((e: unknown) => e);
    expect((unknown as UsageError).message).toBe('this data store has several partners: say which with --partner ID');
  });
});

describe('partner list, reset-secret, seed and sandbox from the command line (in process)', () => {
  const dialect = testDialect();
  let pg: TestDatabase | undefined;
  let data: string;
  let savedUrl: string | undefined;
  let stdout = '';
  let stderr = '';

  beforeAll(async () => {
    data = tempDataDir();
    savedUrl = process.env.DATABASE_URL;
    if (dialect === 'postgres') {
      pg = await createTestDatabase('postgres');
      process.env.DATABASE_URL = pg.url;
    } else delete process.env.DATABASE_URL;
  });
  afterAll(async () => {
    if (savedUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = savedUrl;
    await pg?.drop();
  });
  afterEach(() => vi.restoreAllMocks());

  /** Runs `ledgerlink ...argv --data DIR` in this process; answers what it printed on stdout (stderr in `stderr`). */
  async function cli(...argv: string[]): Promise<string> {
    stdout = '';
    stderr = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
    try {
      await main([...argv, '--data', data]);
      return stdout;
    } finally {
      vi.restoreAllMocks();
    }
  }
  const json = async (...argv: string[]) => JSON.parse(await cli(...argv, '--json'));

  it('seed creates a partner for an empty store, then keeps using the only one; with several it asks which', async () => {
    const first = await json('seed', '--customers', '1', '--transactions', '5');
    expect(first).toMatchObject({ customers: 1, partnerId: expect.stringMatching(/^\d{13}$/), partnerSource: 'created', partnerSecret: expect.any(String) });
    const again = await cli('seed', '--customers', '1', '--transactions', '5');
    expect(again).toMatch(new RegExp(`^Partner ${first.partnerId} \\(Seeded partner\\): the only partner of this data store\\.\\n`));
    expect(again).not.toContain('partnerSecret');
    expect(await json('partner', 'list')).toEqual([
      { partnerId: first.partnerId, name: 'Seeded partner', plan: 'testdrive', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), locked: false },
    ]);

    const other = await json('partner', 'create', '--name', 'Other');
    const several = await cli('seed', '--customers', '1').catch((e: unknown) => e);
    expect(several).toBeInstanceOf(UsageError);
    expect((several as UsageError).message).toBe('this data store has 2 partners: say which with --partner ID');
    expect((several as UsageError).hint).toContain(`${other.partnerId} (Other)`);
    const chosen = await json('seed', '--customers', '1', '--transactions', '5', '--partner', other.partnerId);
    expect(chosen).toMatchObject({ partnerId: other.partnerId, partnerSource: 'option' });
    expect(chosen.partnerSecret).toBeUndefined();

    // Two partners now: the customer names its partner.
    const out = await cli('sandbox', 'reset', String(first.firstCustomerId));
    expect(out).toMatch(new RegExp(`^Customer ${first.firstCustomerId} reset: `));
    // The store line first (every direct-mode command names the store it opened), then the partner it acted for.
    expect(stderr).toMatch(/^store: (sqlite|postgres) \S+\n/);
    expect(stderr.split('\n').slice(1).join('\n')).toBe(`Acted for partner ${first.partnerId} (the customer's partner).\n`);
    const wrong = await cli('sandbox', 'reset', String(first.firstCustomerId), '--partner', other.partnerId).catch((e: unknown) => e);
    expect((wrong as UsageError).message).toBe(`customer ${first.firstCustomerId} belongs to partner ${first.partnerId}, not to partner ${other.partnerId}`);

    const list = await cli('partner', 'list');
    expect(list.split('\n')[0]).toMatch(/^ID +PLAN +CREATED \(UTC\) +LOCKED +NAME$/);
    expect(list).toContain(other.partnerId);
    expect(list).not.toContain(other.partnerSecret);

    const reset = await cli('partner', 'reset-secret', '--partner', other.partnerId);
    const secret = /^New partner secret for \d+: (\S+)\n/.exec(reset)?.[1];
    expect(secret).toBeDefined();
    expect(reset).toContain('shown only this time');
    expect(reset).toContain('Revoked 0 live tokens and ended 0 dashboard sessions');
    const resetJson = await json('partner', 'reset-secret', other.partnerId, '--keep-tokens');
    expect(Object.keys(resetJson).sort()).toEqual(['endedSessions', 'locked', 'partnerId', 'partnerSecret', 'revokedTokens']);
    expect(resetJson.partnerSecret).not.toBe(secret);
    const missing = await cli('partner', 'reset-secret').catch((e: unknown) => e);
    expect((missing as UsageError).message).toBe('partner reset-secret needs a partner id');
  });
});
