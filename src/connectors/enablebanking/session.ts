/**
 * What the connector keeps in its (encrypted) session: the Enable Banking session's id, when the consent was given
 * and when it ends, the accounts the customer shared (identification hash, this session's uid, what the account
 * resource said), and the times of the last unattended reads (the 4-a-day rule, limits.ts). Also the sign-in state
 * between startOAuth and completeOAuth.
 */
import { createHash } from 'node:crypto';
import type { ConnectorSession, JsonValue } from '../connector.js';
import type { AccountFacts } from './map.js';
import type { AccountResource, PsuType } from './wire.js';

export interface EnableBankingSessionData {
  sessionId: string;
  psuType: PsuType;
  /** Epoch seconds (ctx clock): when the consent was given. */
  authorizedAt: number;
  /** Epoch seconds: when it ends. */
  validUntil: number;
  accounts: AccountFacts[];
  /** Epoch seconds of the recent unattended reads. */
  unattended: number[];
}

/** Marks (and versions) an Enable Banking session. */
const FORMAT = 1;
/** Marks the sign-in state kept between startOAuth and completeOAuth. */
const PENDING_FORMAT = 1;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEpoch(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

function isPsuType(value: unknown): value is PsuType {
  return value === 'personal' || value === 'business';
}

const FACT_TEXTS = ['uid', 'iban', 'other', 'name', 'details', 'product', 'cashAccountType', 'currency', 'usage'] as const;

function readFacts(value: unknown): AccountFacts | undefined {
  if (!isRecord(value) || typeof value.ref !== 'string' || value.ref === '') return undefined;
  const facts: AccountFacts = { ref: value.ref };
  for (const key of FACT_TEXTS) if (typeof value[key] === 'string') facts[key] = value[key];
  return facts;
}

function writeFacts(facts: AccountFacts): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = { ref: facts.ref };
  for (const key of FACT_TEXTS) if (facts[key] !== undefined) out[key] = facts[key];
  return out;
}

/** The connector's data in a stored session, or undefined when the session is not an Enable Banking one. */
export function readSession(session: ConnectorSession): EnableBankingSessionData | undefined {
  const { enablebanking, sessionId, psuType, authorizedAt, validUntil, accounts, unattended } = session;
  if (enablebanking !== FORMAT || typeof sessionId !== 'string' || !isPsuType(psuType) || !isEpoch(authorizedAt) || !isEpoch(validUntil)) return undefined;
  if (!Array.isArray(accounts)) return undefined;
  const facts = accounts.map(readFacts);
  if (facts.some((f) => f === undefined)) return undefined;
  return {
    sessionId,
    psuType,
    authorizedAt,
    validUntil,
    accounts: facts as AccountFacts[],
    unattended: Array.isArray(unattended) ? unattended.filter(isEpoch) : [],
  };
}

export function writeSession(data: EnableBankingSessionData): ConnectorSession {
  return {
    enablebanking: FORMAT,
    sessionId: data.sessionId,
    psuType: data.psuType,
    authorizedAt: data.authorizedAt,
    validUntil: data.validUntil,
    accounts: data.accounts.map(writeFacts),
    unattended: [...data.unattended],
  };
}

/**
 * An account resource as the session keeps it. Its ref is the identification hash; an account the API gives none for
 * is named by a hash of its number, which is as stable.
 */
export function factsOf(account: AccountResource): AccountFacts {
  const number = account.iban !== undefined ? `iban:${account.iban}` : `other:${account.other?.schemeName ?? ''}:${account.other?.identification ?? ''}`;
  const ref = account.identificationHash ?? `n:${createHash('sha256').update(number).digest('base64url')}`;
  const facts: AccountFacts = { ref };
  const copy = {
    uid: account.uid,
    iban: account.iban,
    other: account.other?.identification,
    name: account.name,
    details: account.details,
    product: account.product,
    cashAccountType: account.cashAccountType,
    currency: account.currency,
    usage: account.usage,
  };
  for (const key of FACT_TEXTS) if (copy[key] !== undefined) facts[key] = copy[key];
  return facts;
}

/** What startOAuth keeps for completeOAuth: the consent's end it asked for and the kind of customer. */
export interface PendingSignIn {
  psuType: PsuType;
  /** Epoch seconds. */
  validUntil: number;
}

export function writePending(pending: PendingSignIn): ConnectorSession {
  return { enablebankingSignIn: PENDING_FORMAT, psuType: pending.psuType, validUntil: pending.validUntil };
}

export function readPending(value: ConnectorSession): PendingSignIn | undefined {
  const { enablebankingSignIn, psuType, validUntil } = value;
  return enablebankingSignIn === PENDING_FORMAT && isPsuType(psuType) && isEpoch(validUntil) ? { psuType, validUntil } : undefined;
}
