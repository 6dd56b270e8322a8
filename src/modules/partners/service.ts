import { randomBytes } from 'node:crypto';
import type { Database } from '../../platform/db/database.js';
import { stampedMemo } from '../../platform/db/stamped-memo.js';
import { slotFreed, waitForSlot } from '../../platform/wait-for-slot.js';
import { completeSignIn, reserveSignIn, signInKeys } from './sign-in-throttle.service.js';
import { whenReady } from '../../platform/when-ready.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { epochSeconds, type Clock } from '../../platform/clock.js';
import type { Keys } from '../../platform/keys.js';
import { decryptValue, encryptValue, hashSecret, randomDigits, randomString, sha256Hex, verifySecret, verifySecretRemembered } from '../../platform/secrets.js';
import * as repo from './repository.js';
import type { PartnerPlan, PartnerRow } from './table.js';

/** What every partner operation needs. */
export interface PartnerContext {
  database: Database;
  clock: Clock;
  keys: Keys;
  config: { tokenTtlSeconds: number; maxFailedAuthentications: number };
}

/** The authenticated caller of a request. */
export interface Caller {
  partnerId: string;
  plan: PartnerPlan;
}

export interface PartnerCredentials {
  partnerId: string;
  partnerSecret: string;
  appKey: string;
}

const SECRET_CHARS = /^[A-Za-z0-9!@#$%&*_+-]+$/;

/**
 * The partner secret policy (the real service's published rule): 12 to 255 characters from letters,
 * digits and ! @ # $ % & * _ - +, with at least one letter and one digit.
 */
export function secretPolicyViolation(secret: string): string | undefined {
  if (secret.length < 12 || secret.length > 255) return 'it must be 12 to 255 characters long';
  if (!SECRET_CHARS.test(secret)) return 'it may contain only letters, digits and ! @ # $ % & * _ - +';
  if (!/[A-Za-z]/.test(secret)) return 'it must contain at least one letter';
  if (!/[0-9]/.test(secret)) return 'it must contain at least one digit';
  return undefined;
}

function generateSecret(): string {
  for (;;) {
    const s = randomString(20);
    if (!secretPolicyViolation(s)) return s;
  }
}

const generateAppKey = () => randomBytes(16).toString('hex');
const appKeyCipherKey = (keys: Keys) => keys.derive('app-key-at-rest');

/**
 * Creates a partner with fresh credentials; the secret (generated, or chosen at dashboard sign-up and checked by
 * the secret policy) is returned once and stored only hashed.
 */
export async function createPartner(ctx: PartnerContext, input: { name: string; plan?: PartnerPlan; partnerSecret?: string }): Promise<PartnerCredentials> {
  if (input.partnerSecret !== undefined) {
    const violation = secretPolicyViolation(input.partnerSecret);
    if (violation) throw new ServiceError('PartnerSecretPolicy', `The partner secret is not as per policy: ${violation}`);
  }
  const partnerSecret = input.partnerSecret ?? generateSecret();
  const appKey = generateAppKey();
  const secretHash = await hashSecret(partnerSecret);
  const now = epochSeconds(ctx.clock);
  for (let attempt = 0; ; attempt++) {
    const partnerId = randomDigits(13);
    try {
      await repo.insertPartner(ctx.database.kysely, {
        id: partnerId,
        name: input.name,
        plan: input.plan ?? 'testdrive',
        secret_hash: secretHash,
        app_key_hash: sha256Hex(appKey),
        app_key_encrypted: encryptValue(appKeyCipherKey(ctx.keys), appKey),
        created_at: now,
        updated_at: now,
      });
      return { partnerId, partnerSecret, appKey };
    } catch (e) {
      // A 13-digit id collision is astronomically rare; anything else is a real failure.
      if (attempt >= 3 || !(await repo.findPartnerById(ctx.database.kysely, partnerId))) throw e;
    }
  }
}

/**
 * Checks partner credentials presented with an app key. Failures count towards the lock-out;
 * a locked partner is refused whatever it presents.
 */
async function verifyPartner(ctx: PartnerContext, appKey: string, partnerId: string, partnerSecret: string): Promise<PartnerRow> {
  const partner = await repo.findPartnerByAppKeyHash(ctx.database.kysely, sha256Hex(appKey));
  if (!partner) throw new ServiceError('InvalidAppKey');
  return checkSecret(ctx, partner, partnerSecret, partner.id === partnerId);
}

/** A reservation older than this is taken as abandoned by a process that died while checking it. */
const ATTEMPT_STALE_SECONDS = 120;

/**
 * The lock-out rule shared by every way of presenting a secret with the partner's app key or session: an attempt is
 * reserved before the secret is checked, so parallel guesses wait for a slot and at most `maxFailedAuthentications`
 * wrong secrets are ever checked; a locked partner gets the same answer whatever it presents.
 */
async function checkSecret(ctx: PartnerContext, partner: PartnerRow, partnerSecret: string, idMatches: boolean): Promise<PartnerRow> {
  const limit = ctx.config.maxFailedAuthentications;
  const key = `api:${partner.id}`;
  const slot = await waitForSlot(key, () => {
    const now = epochSeconds(ctx.clock);
    return repo.reserveAuthentication(ctx.database.kysely, partner.id, limit, now, now - ATTEMPT_STALE_SECONDS);
  });
  if (slot === 'locked') throw new ServiceError('PartnerLocked');
  if (slot === 'busy') throw new ServiceError('AuthenticationBusy', undefined, { 'retry-after': '1' });
  // Set once the attempt is decided (counted as a failure or a success) in the database.
  let decided = false;
  try {
    // Always run the slow check so timing does not tell a wrong partnerId from a wrong secret: the secrets verified
    // before are remembered only for the partner they belong to.
    const secretOk = await (idMatches ? verifySecretRemembered : verifySecret)(partnerSecret, partner.secret_hash);
    if (!secretOk || !idMatches) {
      const error = await failedAuthentication(ctx, partner.id);
      decided = true;
      throw error;
    }
    const unlocked = await repo.recordSuccessfulAuthentication(ctx.database.kysely, partner.id);
    decided = true;
    if (!unlocked) throw new ServiceError('PartnerLocked');
    return partner;
  } finally {
    // A check or a decision that failed (the database went away) gives its slot back; should that fail too, the
    // reservation lapses as abandoned after ATTEMPT_STALE_SECONDS.
    if (!decided) await repo.releaseAuthentication(ctx.database.kysely, partner.id).catch(() => undefined);
    slotFreed(key);
  }
}

/** Counts a reserved attempt as failed (locking the partner at the limit) and answers the error to throw. */
async function failedAuthentication(ctx: PartnerContext, partnerId: string): Promise<ServiceError> {
  const limit = ctx.config.maxFailedAuthentications;
  const count = await repo.recordFailedAuthentication(ctx.database.kysely, partnerId, limit, epochSeconds(ctx.clock));
  // Past the limit the partner was already locked: the same answer as for the right secret then.
  if (count > limit) return new ServiceError('PartnerLocked');
  const left = limit - count;
  return new ServiceError(
    'InvalidCredentials',
    left > 0
      ? `Invalid credentials (${left} attempt${left === 1 ? '' : 's'} left before the partner is locked)`
      : 'Invalid credentials; the partner is now locked',
  );
}

let unknownPartnerHash: Promise<string> | undefined;

/**
 * Dashboard sign-in with partner id and secret (no app key). Its failures are throttled by partner id and client
 * address and never lock the API; known and unknown ids cost the same slow check and get the same answers. A
 * partner whose API is locked may still sign in, to see the lock and lift it with its secret.
 */
export async function signInPartner(ctx: PartnerContext, partnerId: string, partnerSecret: string, clientAddress: string): Promise<PartnerRow> {
  const attempt = signInKeys(partnerId, clientAddress);
  await reserveSignIn(ctx, attempt);
  let partner: PartnerRow | undefined;
  let secretOk = false;
  try {
    partner = /^\d{1,32}$/.test(partnerId) ? await repo.findPartnerById(ctx.database.kysely, partnerId) : undefined;
    if (partner) secretOk = await verifySecretRemembered(partnerSecret, partner.secret_hash);
    else await verifySecret(partnerSecret, await (unknownPartnerHash ??= hashSecret(randomString(20))));
  } finally {
    await completeSignIn(ctx, attempt, secretOk);
  }
  if (!partner || !secretOk) throw new ServiceError('InvalidCredentials');
  return partner;
}

/** Partner authentication: returns a new token valid for the configured lifetime (two hours). */
export async function authenticatePartner(
  ctx: PartnerContext,
  appKey: string,
  credentials: { partnerId: string; partnerSecret: string },
): Promise<{ token: string; expiresAt: number }> {
  const partner = await verifyPartner(ctx, appKey, credentials.partnerId, credentials.partnerSecret);
  const token = randomString(20);
  const now = epochSeconds(ctx.clock);
  const expiresAt = now + ctx.config.tokenTtlSeconds;
  await repo.insertToken(ctx.database.kysely, { token_hash: sha256Hex(token), partner_id: partner.id, created_at: now, expires_at: expiresAt });
  await repo.deleteExpiredTokens(ctx.database.kysely, partner.id, now - 86400);
  return { token, expiresAt };
}

/** Modify Partner Secret. Existing tokens stay valid, so running integrations are not cut off. */
export async function modifyPartnerSecret(
  ctx: PartnerContext,
  appKey: string,
  input: { partnerId: string; partnerSecret: string; newPartnerSecret: string },
): Promise<void> {
  const partner = await verifyPartner(ctx, appKey, input.partnerId, input.partnerSecret);
  await replaceSecret(ctx, partner, input.partnerSecret, input.newPartnerSecret);
}

/** The dashboard's secret change for a signed-in partner: the current secret is checked (and counted) as at sign-in. */
export async function changePartnerSecret(ctx: PartnerContext, partnerId: string, input: { partnerSecret: string; newPartnerSecret: string }): Promise<void> {
  const partner = await getPartnerRecord(ctx, partnerId);
  await replaceSecret(ctx, await checkSecret(ctx, partner, input.partnerSecret, true), input.partnerSecret, input.newPartnerSecret);
}

async function replaceSecret(ctx: PartnerContext, partner: PartnerRow, current: string, next: string): Promise<void> {
  const violation = secretPolicyViolation(next);
  if (violation) throw new ServiceError('PartnerSecretPolicy', `New password is not as per policy: ${violation}`);
  if (next === current) throw new ServiceError('PartnerSecretPolicy', 'New password is not as per policy: it must differ from the current one');
  await repo.updatePartner(ctx.database.kysely, partner.id, { secret_hash: await hashSecret(next) }, epochSeconds(ctx.clock));
}

/** Resolves the caller of an API request from its app key and token headers. */
export function resolveCaller(ctx: PartnerContext, appKey: string | undefined, token: string | undefined, stamp?: string): Caller | Promise<Caller> {
  if (!appKey) throw new ServiceError('MissingAppKey');
  if (!token) throw new ServiceError('MissingToken');
  // Every request asks this: the answer is kept in memory until a partner, token or customer changes (StampedMemo), and
  // then given at once, without a promise.
  const row = stampedMemo<repo.CallerRow>(ctx.database, 'caller').read(
    `${appKey}\n${token}`,
    () => repo.findCaller(ctx.database.kysely, sha256Hex(appKey), sha256Hex(token)),
    stamp,
  );
  return whenReady(row, (found) => callerOf(ctx, found));
}

function callerOf(ctx: PartnerContext, row: Readonly<repo.CallerRow> | undefined): Caller {
  if (!row) throw new ServiceError('InvalidAppKey');
  if (row.token_partner_id === null || row.token_expires_at === null) throw new ServiceError('InvalidToken');
  if (row.token_partner_id !== row.id) throw new ServiceError('NotAuthorized');
  if (row.token_expires_at <= epochSeconds(ctx.clock)) throw new ServiceError('ExpiredToken');
  return { partnerId: row.id, plan: row.plan };
}

/** Issues a new app key; the old one stops working at once (lookups are by the stored hash). */
export async function rotateAppKey(ctx: PartnerContext, partnerId: string): Promise<string> {
  const appKey = generateAppKey();
  const ok = await repo.updatePartner(
    ctx.database.kysely,
    partnerId,
    { app_key_hash: sha256Hex(appKey), app_key_encrypted: encryptValue(appKeyCipherKey(ctx.keys), appKey) },
    epochSeconds(ctx.clock),
  );
  if (!ok) throw new ServiceError('ResourceNotFound', `Partner ${partnerId} not found`);
  return appKey;
}

/** A partner as an operator sees it: never its secret or app key. */
export interface PartnerSummary {
  partnerId: string;
  name: string;
  plan: PartnerPlan;
  /** Epoch seconds. */
  createdAt: number;
  locked: boolean;
}

/** Every partner of the data store, oldest first. */
export async function listPartners(ctx: Pick<PartnerContext, 'database'>): Promise<PartnerSummary[]> {
  const rows = await repo.listPartners(ctx.database.kysely);
  return rows.map((r) => ({ partnerId: r.id, name: r.name, plan: r.plan, createdAt: Number(r.created_at), locked: r.locked_at !== null }));
}

export interface SecretReset {
  partnerId: string;
  /** The new secret, in clear: shown once, stored only hashed. */
  partnerSecret: string;
  /** Live API tokens revoked (0 with keepTokens). */
  revokedTokens: number;
  /** Dashboard sessions ended (0 with keepTokens). */
  endedSessions: number;
  /** Whether the partner is locked: a new secret does not lift a lock-out. */
  locked: boolean;
}

/**
 * The operator's answer to a lost secret: a new generated secret (as at creation), stored hashed; the old one stops
 * working at once in every process (each check reads the stored hash, and a secret verified before is remembered
 * only with the hash it matched). Unless `keepTokens`, every API token and dashboard session of the partner ends
 * too, since whoever has the old secret may hold some. A lock-out stays: `unlockPartner` lifts it.
 */
export async function resetPartnerSecret(ctx: PartnerContext, partnerId: string, options: { keepTokens?: boolean } = {}): Promise<SecretReset> {
  const partnerSecret = generateSecret();
  const secretHash = await hashSecret(partnerSecret);
  const now = epochSeconds(ctx.clock);
  return ctx.database.kysely.transaction().execute(async (tx) => {
    const partner = await repo.findPartnerById(tx, partnerId);
    if (!partner) throw new ServiceError('ResourceNotFound', `Partner ${partnerId} not found`);
    await repo.updatePartner(tx, partnerId, { secret_hash: secretHash }, now);
    let revokedTokens = 0;
    let endedSessions = 0;
    if (!options.keepTokens) {
      revokedTokens = (await repo.deleteTokensOf(tx, partnerId)).filter((expiresAt) => expiresAt > now).length;
      endedSessions = (await repo.deleteDashboardSessionsOf(tx, partnerId)).filter((expiresAt) => expiresAt > now).length;
    }
    return { partnerId, partnerSecret, revokedTokens, endedSessions, locked: partner.locked_at !== null };
  });
}

/** Lifts a lock-out and clears the failure count. */
export async function unlockPartner(ctx: PartnerContext, partnerId: string): Promise<void> {
  const ok = await repo.updatePartner(ctx.database.kysely, partnerId, { locked_at: null, failed_auth_count: 0 }, epochSeconds(ctx.clock));
  if (!ok) throw new ServiceError('ResourceNotFound', `Partner ${partnerId} not found`);
}

/**
 * Lifts a lock-out from the partner's own dashboard: only with the current secret (a wrong one still counts), so a
 * session alone cannot undo a lock that someone else's guessing caused without proving the secret again.
 */
export async function unlockWithSecret(ctx: PartnerContext, partnerId: string, partnerSecret: string, clientAddress: string): Promise<void> {
  const partner = await getPartnerRecord(ctx, partnerId);
  if (partner.locked_at === null) throw new ServiceError('BadRequest', 'The partner is not locked.');
  // Guesses here are throttled like dashboard sign-ins (the partner is locked, so the API count is past caring).
  const attempt = signInKeys(partnerId, clientAddress);
  await reserveSignIn(ctx, attempt);
  let secretOk = false;
  try {
    secretOk = await verifySecret(partnerSecret, partner.secret_hash);
  } finally {
    await completeSignIn(ctx, attempt, secretOk);
  }
  if (!secretOk) throw new ServiceError('InvalidCredentials', 'Invalid credentials; the partner stays locked');
  await unlockPartner(ctx, partnerId);
}

/** The partner's record, for its own dashboard. */
export async function getPartnerRecord(ctx: PartnerContext, partnerId: string): Promise<PartnerRow> {
  return partnerOrNotFound(partnerId, await repo.findPartnerById(ctx.database.kysely, partnerId));
}

/**
 * The partner's record for reads outside any transaction (GET partner): kept in memory until a partner, token or
 * customer changes (StampedMemo), and then given at once, without a promise.
 */
export function readPartnerRecord(database: Database, partnerId: string, stamp?: string): Readonly<PartnerRow> | Promise<Readonly<PartnerRow>> {
  return whenReady(
    stampedMemo<PartnerRow>(database, 'partner').read(partnerId, () => repo.findPartnerById(database.kysely, partnerId), stamp),
    (row) => partnerOrNotFound(partnerId, row),
  );
}

function partnerOrNotFound<R extends Readonly<PartnerRow>>(partnerId: string, partner: R | undefined): R {
  if (!partner) throw new ServiceError('ResourceNotFound', `Partner ${partnerId} not found`);
  return partner;
}

/** The partner's current app key in clear, for the partner's own dashboard. */
export async function revealAppKey(ctx: PartnerContext, partnerId: string): Promise<string> {
  const partner = await getPartnerRecord(ctx, partnerId);
  return decryptValue(appKeyCipherKey(ctx.keys), partner.app_key_encrypted);
}
