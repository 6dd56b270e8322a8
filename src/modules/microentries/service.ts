/**
 * Account Validation Assistance (docs/micro-entries.md): two deposits of less than a dollar to an account named by
 * routing and account number; the customer proves they hold the account by telling their amounts. The deposits land
 * one day later on the customer's clock; where the customer has the same account aggregated here, they appear on it
 * as transactions, and when the initiation named that account's institution login they verify the entries by
 * themselves. Time-driven changes (landing, expiry) are made when an entry is next read, in one transaction with its
 * deposit transactions and callbacks, so concurrent readers make them once.
 */
import { createHmac } from 'node:crypto';
import type { Static } from 'typebox';
import { routingNumberOf } from '../../connectors/routing-number.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { InitiatedMicroEntries, MicroEntryDetails, MicroEntryInitiation, VerifiedMicroEntries } from '../../contract/schemas/microentries.js';
import { MICRO_ENTRY_ACCOUNT_TYPES } from '../../contract/schemas/microentries.js';
import { enqueueDelivery } from '../../outbox/enqueue.js';
import { newEventId, partnerWebhookSecret } from '../../outbox/sign.js';
import type { Executor } from '../../platform/db/database.js';
import { decryptValue, encryptValue } from '../../platform/secrets.js';
import { getLoginRow, parseId } from '../aggregation/accounts.service.js';
import { customerNow, type Engine } from '../aggregation/engine.js';
import { injectTransaction } from '../aggregation/injected.service.js';
import type { AccountRow } from '../aggregation/table.js';
import { getCustomerForPartner } from '../customers/service.js';
import type { CustomerRow } from '../customers/table.js';
import { achAccountNumber } from '../payments/products.rules.js';
import {
  amountsFor,
  amountsMatch,
  answeredCents,
  ARRIVAL_SECONDS,
  DEPOSIT_COUNT,
  MAX_FAILED_ATTEMPTS,
  REINITIABLE,
  statusAt,
  statusDescription,
} from './amounts.rules.js';
import * as repo from './repository.js';
import type { MicroEntryRow, MicroEntryStatus } from './table.js';

export type MicroEntryInitiationInput = Static<typeof MicroEntryInitiation>;
type Initiated = Static<typeof InitiatedMicroEntries>;
type Verified = Static<typeof VerifiedMicroEntries>;
type Details = Static<typeof MicroEntryDetails>;

const SECRETS_PURPOSE = 'micro-entry-secrets';
const HASH_PURPOSE = 'micro-entry-account-number';
const RAIL = 'ach';
const NAME_MAX = 255;
const MEMO_MAX = 80;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** What the deposits are called on the receiving account's statement. */
const DEPOSIT_DESCRIPTION = 'ACCTVERIFY MICRO ENTRY';

interface Receiver {
  routingNumber: string;
  accountNumber: string;
  accountType: string;
  name: string;
  memo?: string;
}

/** Row ids and times as numbers (PostgreSQL answers bigint columns as strings). */
function normalised(row: MicroEntryRow): MicroEntryRow {
  return {
    ...row,
    id: Number(row.id),
    customer_id: Number(row.customer_id),
    account_id: Number(row.account_id),
    institution_login_id: row.institution_login_id === null ? null : Number(row.institution_login_id),
    failed_attempts: Number(row.failed_attempts),
    initiated_at: Number(row.initiated_at),
    arrives_at: Number(row.arrives_at),
    auto_verified_account_id: row.auto_verified_account_id === null ? null : Number(row.auto_verified_account_id),
    updated_at: Number(row.updated_at),
  };
}

function seal(engine: Engine, value: unknown): string {
  return encryptValue(engine.runtime.keys.derive(SECRETS_PURPOSE), JSON.stringify(value));
}

function unseal<T>(engine: Engine, sealed: string): T {
  return JSON.parse(decryptValue(engine.runtime.keys.derive(SECRETS_PURPOSE), sealed)) as T;
}

function numberHash(engine: Engine, digits: string): string {
  return createHmac('sha256', engine.runtime.keys.derive(HASH_PURPOSE)).update(digits).digest('hex');
}

function invalid(field: string, rule: string): ServiceError {
  return new ServiceError('InvalidParameter', `Invalid parameter (${field}): ${rule}`);
}

function cleanText(field: string, value: string, max: number): string {
  const v = value.trim();
  if (CONTROL.test(v)) throw invalid(field, 'control characters are not allowed.');
  if (v.length > max) throw invalid(field, `at most ${max} characters.`);
  return v;
}

/** The receiver with its numbers checked: the routing number's check digit, 4 to 17 account number digits. */
function cleanReceiver(input: MicroEntryInitiationInput['receiver']): Receiver {
  const routingNumber = routingNumberOf(input.routingNumber);
  if (routingNumber === undefined) throw new ServiceError('MicroEntryRoutingNumberInvalid');
  const accountNumber = achAccountNumber(input.accountNumber.trim());
  if (accountNumber === undefined) throw new ServiceError('MicroEntryAccountNumberInvalid');
  const accountType = input.accountType.trim();
  if (!(MICRO_ENTRY_ACCOUNT_TYPES as readonly string[]).includes(accountType))
    throw invalid('receiver.accountType', `one of ${MICRO_ENTRY_ACCOUNT_TYPES.join(', ')}.`);
  const memo = input.memo === undefined ? '' : cleanText('receiver.memo', input.memo, MEMO_MAX);
  return { routingNumber, accountNumber, accountType, name: cleanText('receiver.name', input.name, NAME_MAX), ...(memo ? { memo } : {}) };
}

function cleanCallbackUrl(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw invalid('callbackUrl', 'not an absolute URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('callbackUrl', 'use an http or https URL.');
  if (url.username || url.password) throw invalid('callbackUrl', 'credentials in the URL are not accepted.');
  return url.toString();
}

/** The customer's aggregated deposit account with these numbers, if Ledgerlink aggregates it. */
async function aggregatedAccount(
  db: Executor,
  customerId: number,
  receiver: Pick<Receiver, 'routingNumber' | 'accountNumber'>,
): Promise<AccountRow | undefined> {
  const candidates = await repo.accountsAtRoutingNumber(db, customerId, receiver.routingNumber);
  return candidates.find((a) => (a.type === 'checking' || a.type === 'savings') && achAccountNumber(a.number) === receiver.accountNumber);
}

/** Queues the entry's status change to its callback URL (nothing without one), signed with the partner's webhook key. */
async function notify(engine: Engine, tx: Executor, row: MicroEntryRow, now: number): Promise<void> {
  if (row.callback_url === null) return;
  const eventId = newEventId();
  const body = {
    eventType: 'microentry.status',
    eventId,
    customerId: String(row.customer_id),
    accountId: String(row.account_id),
    status: row.status,
    statusDescription: statusDescription(row.status, row.failed_attempts),
    eventTime: now,
  };
  await enqueueDelivery(tx, engine.runtime, {
    kind: 'webhook',
    partnerId: row.partner_id,
    url: row.callback_url,
    body: JSON.stringify(body),
    contentType: 'application/json',
    signingSecret: partnerWebhookSecret(engine.runtime.keys, row.partner_id),
    eventId,
    customerId: row.customer_id,
    eventType: `microentry.${row.status.toLowerCase()}`,
  });
}

/** The deposits land: on the aggregated account when there is one, verifying the entries when it is the named login's. */
async function land(engine: Engine, tx: Executor, customer: CustomerRow, row: MicroEntryRow, now: number): Promise<MicroEntryRow | undefined> {
  const receiver = unseal<Receiver>(engine, row.receiver_encrypted);
  const account = await aggregatedAccount(tx, customer.id, receiver);
  const seen = account !== undefined && account.first_aggregated_at !== null ? account : undefined;
  const autoVerified = seen !== undefined && row.institution_login_id !== null && Number(seen.institution_login_id) === row.institution_login_id;
  const landed = await repo.updateMicroEntryIf(tx, row.id, ['Pending'], {
    status: autoVerified ? 'Verified' : 'Completed',
    auto_verified_account_id: autoVerified ? Number(seen.id) : null,
    updated_at: now,
  });
  if (!landed) return undefined;
  if (seen !== undefined) {
    const cents = unseal<number[]>(engine, row.amounts_encrypted);
    for (const [i, c] of cents.entries()) {
      await injectTransaction(engine, tx, customer, seen, {
        ref: `microentry:${row.id}:${row.initiated_at}:${i + 1}`,
        amount: c / 100,
        description: DEPOSIT_DESCRIPTION,
        memo: receiver.memo ?? null,
        category: 'Transfer',
        status: 'active',
        transactionDate: row.arrives_at,
        postedDate: row.arrives_at,
        now,
      });
    }
  }
  const result = normalised(landed);
  await notify(engine, tx, result, now);
  return result;
}

/** Brings the entry to the status it has reached by now (landing, expiry), once however many requests ask at once. */
async function settle(engine: Engine, customer: CustomerRow, row: MicroEntryRow): Promise<MicroEntryRow> {
  const now = customerNow(engine, customer);
  if (statusAt(row.status, row.arrives_at, now) === row.status) return row;
  const db = engine.runtime.database.kysely;
  const settled = await db.transaction().execute(async (tx) => {
    let current: MicroEntryRow | undefined = row;
    if (current.status === 'Pending') current = await land(engine, tx, customer, current, now);
    if (current !== undefined && statusAt(current.status, current.arrives_at, now) === 'Expired') {
      const expired = await repo.updateMicroEntryIf(tx, current.id, ['Completed'], { status: 'Expired', updated_at: now });
      current = expired ? normalised(expired) : undefined;
      if (current) await notify(engine, tx, current, now);
    }
    return current;
  });
  if (settled) return settled;
  // Another request made the change first: read what it left.
  return normalised((await repo.findMicroEntryOfAccount(db, customer.id, row.account_id))!);
}

/** The customer's entry of the receiving account, settled; 404 when there is none. */
async function entryOf(engine: Engine, customer: CustomerRow, accountId: string | number): Promise<MicroEntryRow> {
  const id = parseId(accountId);
  const row = id === undefined ? undefined : await repo.findMicroEntryOfAccount(engine.runtime.database.kysely, customer.id, id);
  if (!row) throw new ServiceError('ResourceNotFound', 'Micro entries not found for this account.');
  return settle(engine, customer, normalised(row));
}

/**
 * Initiate Micro Entries: 404 for an unknown customer or institution login (or a login without accounts); 409 when the
 * customer's entries for these numbers are under way or verified; the same numbers may be initiated again once they
 * failed or expired, with new amounts.
 */
export async function initiateMicroEntries(engine: Engine, partnerId: string, customerId: string, input: MicroEntryInitiationInput): Promise<Initiated> {
  const db = engine.runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const receiver = cleanReceiver(input.receiver);
  const callbackUrl = cleanCallbackUrl(input.callbackUrl);
  let loginId: number | null = null;
  if (input.institutionLoginId !== undefined && input.institutionLoginId.trim() !== '') {
    const login = await getLoginRow(db, customer, input.institutionLoginId.trim());
    if ((await repo.countLoginAccounts(db, login.id)) === 0) throw new ServiceError('NoAccountsForInstitutionLogin');
    loginId = login.id;
  }
  const hash = numberHash(engine, receiver.accountNumber);
  const now = customerNow(engine, customer);
  const fresh = {
    receiver_encrypted: seal(engine, receiver),
    amounts_encrypted: seal(engine, amountsFor(receiver.routingNumber, receiver.accountNumber)),
    institution_login_id: loginId,
    callback_url: callbackUrl,
    status: 'Pending' as const,
    failed_attempts: 0,
    initiated_at: now,
    arrives_at: now + ARRIVAL_SECONDS,
    auto_verified_account_id: null,
    updated_at: now,
  };
  const existing = await repo.findMicroEntryByNumbers(db, customer.id, receiver.routingNumber, hash);
  let row: MicroEntryRow | undefined;
  if (existing === undefined) {
    row = await db.transaction().execute(async (tx) => {
      const matched = await aggregatedAccount(tx, customer.id, receiver);
      const inserted = await repo.insertMicroEntry(tx, {
        partner_id: partnerId,
        customer_id: customer.id,
        account_id: matched ? Number(matched.id) : 0,
        routing_number: receiver.routingNumber,
        account_number_hash: hash,
        account_number_last4: receiver.accountNumber.slice(-4),
        ...fresh,
      });
      if (inserted === undefined || matched) return inserted;
      // An account Ledgerlink does not aggregate is named by the entry's own id.
      return repo.updateMicroEntryIf(tx, Number(inserted.id), ['Pending'], { account_id: Number(inserted.id) });
    });
  } else {
    const current = await settle(engine, customer, normalised(existing));
    if (REINITIABLE.has(current.status)) row = await repo.updateMicroEntryIf(db, current.id, [current.status], fresh);
  }
  if (row === undefined) throw new ServiceError('MicroEntryAccountExists');
  return {
    accountId: String(row.account_id),
    status: 'Pending',
    depositCount: DEPOSIT_COUNT,
    statusDescription: statusDescription('Pending'),
    railType: RAIL,
  };
}

/**
 * Verify Micro Entries: the two amounts in dollars, in any order. 400 while the deposits have not landed or after the
 * entries are settled otherwise; a wrong answer counts, and the third fails the entries.
 */
export async function verifyMicroEntries(
  engine: Engine,
  partnerId: string,
  customerId: string,
  accountId: string,
  amounts: readonly number[],
): Promise<Verified> {
  const db = engine.runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const row = await entryOf(engine, customer, accountId);
  const answered = amounts.map(answeredCents);
  if (answered.length !== DEPOSIT_COUNT || answered.some((c) => c === undefined)) {
    throw new ServiceError('MicroEntryAmountFormat', `Invalid amount format: give the ${DEPOSIT_COUNT} amounts received, each from 0.01 to 0.99 dollars.`);
  }
  if (row.status === 'Failed') throw new ServiceError('MicroEntryAttemptsExceeded');
  if (row.status !== 'Completed') throw new ServiceError('MicroEntryStatusInvalid', `Microdeposit is in ${row.status} status.`);
  const now = customerNow(engine, customer);
  if (amountsMatch(unseal<number[]>(engine, row.amounts_encrypted), answered as number[])) {
    const verified = await db.transaction().execute(async (tx) => {
      const updated = await repo.updateMicroEntryIf(tx, row.id, ['Completed'], { status: 'Verified', updated_at: now });
      if (updated) await notify(engine, tx, normalised(updated), now);
      return updated;
    });
    if (!verified) throw new ServiceError('MicroEntryStatusInvalid', 'Microdeposit is no longer waiting for its amounts.');
    return { status: 'Verified', statusDescription: statusDescription('Verified') };
  }
  const failed = await db.transaction().execute(async (tx) => {
    const counted = await repo.countFailedAttempt(tx, row.id, now);
    if (!counted) return undefined;
    const current = normalised(counted);
    if (current.failed_attempts < MAX_FAILED_ATTEMPTS) return current;
    const ended = normalised((await repo.updateMicroEntryIf(tx, row.id, ['Completed'], { status: 'Failed', updated_at: now }))!);
    await notify(engine, tx, ended, now);
    return ended;
  });
  if (!failed) throw new ServiceError('MicroEntryStatusInvalid', 'Microdeposit is no longer waiting for its amounts.');
  const left = MAX_FAILED_ATTEMPTS - failed.failed_attempts;
  throw new ServiceError(
    'MicroEntryAmountsMismatch',
    left > 0 ? `Microdeposit amounts didn't match; ${left} attempts left.` : "Microdeposit amounts didn't match; no attempts left: the micro entries failed.",
  );
}

/** Get Micro Entries Details: the entry's status as of now. */
export async function getMicroEntryDetails(engine: Engine, partnerId: string, customerId: string, accountId: string): Promise<Details> {
  const customer = await getCustomerForPartner(engine.runtime.database.kysely, partnerId, customerId);
  const row = await entryOf(engine, customer, accountId);
  return {
    status: row.status,
    statusDescription: statusDescription(row.status, row.failed_attempts),
    creationDate: new Date(row.initiated_at * 1000).toISOString().slice(0, 19),
    routingNumber: row.routing_number,
    accountNumberLast4: row.account_number_last4,
    ...(row.auto_verified_account_id !== null ? { autoVerifiedAccount: row.auto_verified_account_id } : {}),
    railType: RAIL,
  };
}

/** The status of the customer's entry of the account (for Connect's verify page); 404 when there is none. */
export async function microEntryStatus(
  engine: Engine,
  customer: CustomerRow,
  accountId: string | number,
): Promise<{ accountId: number; status: MicroEntryStatus; attemptsLeft: number; last4: string }> {
  const row = await entryOf(engine, customer, accountId);
  return { accountId: row.account_id, status: row.status, attemptsLeft: MAX_FAILED_ATTEMPTS - row.failed_attempts, last4: row.account_number_last4 };
}

/** Lands and expires the customer's entries that are due (after the sandbox moved the customer's clock), with their callbacks. */
export async function settleCustomerMicroEntries(engine: Engine, customer: CustomerRow): Promise<void> {
  for (const row of await repo.listOpenMicroEntries(engine.runtime.database.kysely, customer.id)) await settle(engine, customer, normalised(row));
}
