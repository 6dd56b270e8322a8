import { describe, expect, it, vi } from 'vitest';

/** scrypt derivations in flight, counted around the real node:crypto scrypt. */
const inFlight = vi.hoisted(() => ({ now: 0, peak: 0, started: 0 }));

vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  const scrypt = (...args: unknown[]) => {
    const done = args.pop() as (error: Error | null, key: Buffer) => void;
    inFlight.now++;
    inFlight.started++;
    inFlight.peak = Math.max(inFlight.peak, inFlight.now);
    try {
      (crypto.scrypt as (...a: unknown[]) => void)(...args, (error: Error | null, key: Buffer) => {
        inFlight.now--;
        done(error, key);
      });
    } catch (error) {
      // Parameters scrypt refuses throw at once instead of calling back.
      inFlight.now--;
      throw error;
    }
  };
  return { ...crypto, default: { ...crypto, scrypt }, scrypt };
});

const { hashSecret, SCRYPT_CONCURRENCY, verifySecret, verifySecretRemembered } = await import('../../src/platform/secrets.js');

/** Made before scrypt derivations were limited: stored hashes keep their format and stay verifiable. */
const STORED = 'scrypt$16384$8$1$bGVkZ2VybGluay1zYWx0IQ==$2kAo1sitMMPpq/cZUCGENG8SqpsOBnMTRP53E+A2j+s=';

describe('scrypt secrets', () => {
  it('remembers a verified secret for its stored hash: the same secret again costs no scrypt, a wrong one always does', async () => {
    const stored = await hashSecret('remembered secret');
    const other = await hashSecret('another secret');
    const started = () => inFlight.started;
    let before = started();
    expect(await verifySecretRemembered('remembered secret', stored)).toBe(true);
    expect(started() - before, 'the first time runs scrypt').toBe(1);
    before = started();
    for (let i = 0; i < 5; i++) expect(await verifySecretRemembered('remembered secret', stored)).toBe(true);
    expect(started() - before).toBe(0);
    // Wrong secrets are checked the slow way every time, and never remembered.
    before = started();
    expect(await verifySecretRemembered('remembered secreT', stored)).toBe(false);
    expect(await verifySecretRemembered('remembered secreT', stored)).toBe(false);
    expect(started() - before).toBe(2);
    // What was verified for one stored hash says nothing about another (a changed secret has a new hash).
    before = started();
    expect(await verifySecretRemembered('remembered secret', other)).toBe(false);
    expect(started() - before).toBe(1);
    // The plain check never uses what was remembered.
    before = started();
    expect(await verifySecret('remembered secret', stored)).toBe(true);
    expect(started() - before).toBe(1);
  });

  it('makes one scrypt for the same secret presented many times at once, and one per distinct secret', async () => {
    const stored = await hashSecret('busy client secret');
    const before = inFlight.started;
    const asks = [...Array.from({ length: 16 }, () => 'busy client secret'), ...Array.from({ length: 4 }, () => 'busy client guess')];
    const results = await Promise.all(asks.map((secret) => verifySecretRemembered(secret, stored)));
    expect(results).toEqual(asks.map((secret) => secret === 'busy client secret'));
    expect(inFlight.started - before, 'one for the right secret, one for the repeated wrong one').toBe(2);
    // Once settled, a wrong secret is checked afresh; the right one is remembered.
    expect(await verifySecretRemembered('busy client guess', stored)).toBe(false);
    expect(await verifySecretRemembered('busy client secret', stored)).toBe(true);
    expect(inFlight.started - before).toBe(3);
  });

  it('verifies a hash stored by earlier versions', async () => {
    expect(await verifySecret('Partner-Secret-2026', STORED)).toBe(true);
    expect(await verifySecret('Partner-Secret-2027', STORED)).toBe(false);
  });

  it(`runs at most ${SCRYPT_CONCURRENCY} derivations at once, however many are asked for`, async () => {
    const stored = await hashSecret('right secret');
    inFlight.peak = 0;
    inFlight.started = 0;
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => verifySecret(i % 3 === 0 ? 'wrong secret' : 'right secret', stored)));
    expect(results).toEqual(Array.from({ length: 12 }, (_, i) => i % 3 !== 0));
    expect(inFlight.started).toBe(12);
    expect(inFlight.peak).toBe(SCRYPT_CONCURRENCY);
    expect(inFlight.now).toBe(0);
  });

  it('hands the slot of a failed derivation to the next one', async () => {
    // An impossible cost makes scrypt fail; the derivations queued behind it must still run.
    const broken = 'scrypt$3$8$1$bGVkZ2VybGluay1zYWx0IQ==$2kAo1sitMMPpq/cZUCGENG8SqpsOBnMTRP53E+A2j+s=';
    const outcomes = await Promise.allSettled([...Array.from({ length: 4 }, () => verifySecret('x', broken)), verifySecret('Partner-Secret-2026', STORED)]);
    expect(outcomes.slice(0, 4).every((o) => o.status === 'rejected')).toBe(true);
    expect(outcomes[4]).toEqual({ status: 'fulfilled', value: true });
    expect(inFlight.now).toBe(0);
  });
});
