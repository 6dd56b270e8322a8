import { cancelSubscriptionDeliveries } from '../../outbox/cancel.js';
import { settleCustomerMicroEntries } from '../microentries/service.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { MAX_ADVANCE_DAYS, SANDBOX_ERROR_CODES, TXPUSH_EVENT_TYPES, type SandboxErrorCode, type TxPushEventType } from '../../contract/schemas/sandbox.js';
import { epochSeconds } from '../../platform/clock.js';
import { accountRecord, deleteAccountRows, getAccountRow, getLoginRow, listAccountRows, parseId } from '../aggregation/accounts.service.js';
import { advanceCustomerClock, MAX_CLOCK_ADVANCE_SECONDS } from '../aggregation/clock.service.js';
import { customerNow, type Engine } from '../aggregation/engine.js';
import { listCustomerLogins } from '../aggregation/logins.repository.js';
import { toTransactionEventRecord, type AggregationEvent } from '../aggregation/records.js';
import { refreshLogin } from '../aggregation/refresh.service.js';
import { scheduleAfter } from '../aggregation/schedule.rules.js';
import type { EventClass, EventType } from '../aggregation/table.js';
import { linkRow } from '../connect/links.service.js';
import { httpUrl, webhookContentTypeOf } from '../connect/service.js';
import {
  CONNECT_EVENT_TYPES,
  connectWebhookTarget,
  enqueueConnectWebhook,
  type ConnectEventType,
  type ConnectWebhookTarget,
} from '../connect/webhooks.service.js';
import { getCustomerForPartner } from '../customers/service.js';
import type { Caller } from '../partners/service.js';
import { enqueuePushNotifications } from '../txpush/notify.service.js';
import { subscriptionsOfAccounts } from '../txpush/repository.js';
import * as repo from './controls.repository.js';

const DAY = 86_400;

export { MAX_ADVANCE_DAYS, SANDBOX_ERROR_CODES, TXPUSH_EVENT_TYPES, type TxPushEventType } from '../../contract/schemas/sandbox.js';
// The schemas' limit must be the engine's.
if (MAX_ADVANCE_DAYS * DAY > MAX_CLOCK_ADVANCE_SECONDS) throw new Error("MAX_ADVANCE_DAYS is beyond the engine's clock limit");

/** Refuses partners on the production plan: sandbox controls are for Test Drive partners. */
export function assertSandboxAllowed(caller: Caller): void {
  if (caller.plan === 'production') {
    throw new ServiceError(
      'SandboxNotAllowed',
      `Partner ${caller.partnerId} is on the production plan: sandbox controls are only for partners on the Test Drive plan.`,
    );
  }
}

function db(engine: Engine) {
  return engine.runtime.database.kysely;
}

// ---------------------------------------------------------------------------------------------------------------
// Clock

export interface ClockAdvance {
  customerId: string;
  days: number;
  /** The customer's clock after the advance (epoch seconds). */
  customerDate: number;
  /** Each institution login refreshed at the new time: 0, or the aggregation status code it failed with. */
  institutionLogins: { institutionLoginId: string; aggregationStatusCode: number }[];
}

/**
 * Moves the customer's clock ahead by `days` and refreshes every institution login at the new time, as a
 * scheduled aggregation would: the transactions of the skipped days appear, pending ones post, and the accounts'
 * subscriptions receive the events of those changes. A login in an error state records the failure instead.
 */
export async function advanceClock(engine: Engine, caller: Caller, customerId: string, days: number): Promise<ClockAdvance> {
  assertSandboxAllowed(caller);
  await getCustomerForPartner(db(engine), caller.partnerId, customerId);
  if (!Number.isInteger(days) || days < 1 || days > MAX_ADVANCE_DAYS) {
    throw new ServiceError('InvalidParameter', `Invalid parameter (days): a whole number of days from 1 to ${MAX_ADVANCE_DAYS}.`);
  }
  const customerDate = await advanceCustomerClock(engine, caller.partnerId, customerId, days * DAY);
  const customer = await getCustomerForPartner(db(engine), caller.partnerId, customerId);
  const logins = await listCustomerLogins(db(engine), customer.id);
  const outcomes: ClockAdvance['institutionLogins'] = [];
  for (const login of logins) {
    const outcome = await refreshLogin(engine, customer, login, { kind: 'refresh' });
    const code = outcome.ran ? outcome.code : Number((await getLoginRow(db(engine), customer, login.id)).aggregation_status_code);
    outcomes.push({ institutionLoginId: String(login.id), aggregationStatusCode: code });
  }
  // After the refreshes, so deposits that land now find the accounts as they are at the new time.
  await settleCustomerMicroEntries(engine, customer);
  return { customerId: String(customer.id), days, customerDate, institutionLogins: outcomes };
}

// ---------------------------------------------------------------------------------------------------------------
// Error states

/** The error states a login can be put into, with the words the test bank uses for each. */
export const SANDBOX_ERROR_MESSAGES: Readonly<Record<SandboxErrorCode, string>> = {
  102: 'The institution is not responding. Try again later.',
  103: 'The institution rejected the saved credentials. Sign in again.',
  108: 'Sign in to the institution website to review a notice, then reconnect.',
  109: 'Your password has expired. Change it on the institution website.',
  185: 'Your institution needs you to answer a security question again.',
};

export interface LoginErrorState {
  customerId: string;
  institutionLoginId: string;
  /** 0 when the login is healthy. */
  aggregationStatusCode: number;
  message: string | null;
}

/**
 * Puts an institution login into an error state: the login and its accounts show the status code at once (as after
 * a failed aggregation), and every later refresh or historic load fails with it, as when the institution answers
 * so, until the user signs in again through Connect Fix or the state is cleared.
 */
export async function setLoginError(engine: Engine, caller: Caller, customerId: string, institutionLoginId: string, code: number): Promise<LoginErrorState> {
  assertSandboxAllowed(caller);
  const message = (SANDBOX_ERROR_MESSAGES as Readonly<Record<number, string | undefined>>)[code];
  return db(engine)
    .transaction()
    .execute(async (tx) => {
      const customer = await getCustomerForPartner(tx, caller.partnerId, customerId);
      const login = await getLoginRow(tx, customer, institutionLoginId);
      if (message === undefined || !Number.isInteger(code)) {
        throw new ServiceError(
          'SandboxErrorCodeUnsupported',
          `Invalid parameter (code): ${String(code)} is not an error state the sandbox sets; use one of ${SANDBOX_ERROR_CODES.join(', ')}.`,
        );
      }
      await repo.setLoginFailure(tx, login.id, code, message, customerNow(engine, customer), scheduleAfter(engine, login, code));
      return { customerId: String(customer.id), institutionLoginId: String(login.id), aggregationStatusCode: code, message };
    });
}

/** Clears an error state (set by the sandbox or left by a failed aggregation): the login and its accounts are healthy again. */
export async function clearLoginError(engine: Engine, caller: Caller, customerId: string, institutionLoginId: string): Promise<LoginErrorState> {
  assertSandboxAllowed(caller);
  return db(engine)
    .transaction()
    .execute(async (tx) => {
      const customer = await getCustomerForPartner(tx, caller.partnerId, customerId);
      const login = await getLoginRow(tx, customer, institutionLoginId);
      await repo.clearLoginFailure(tx, login.id, customerNow(engine, customer), scheduleAfter(engine, login, 0));
      return { customerId: String(customer.id), institutionLoginId: String(login.id), aggregationStatusCode: 0, message: null };
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Connect webhooks

export interface FireConnectWebhookInput {
  customerId: string;
  eventType: string;
  /** Where to send it; defaults to the webhook of the customer's latest Connect link that had one. */
  webhook?: string;
  /** With `webhook`: application/json (default) or application/xml. */
  webhookContentType?: string;
  /** Replaces the example payload of the event type (a JSON object). */
  payload?: object;
}

export interface FiredConnectWebhook {
  eventId: string;
  eventType: ConnectEventType;
  customerId: string;
  webhook: string;
}

/** Whether a value names a Connect event type. */
export function isConnectEventType(value: string): value is ConnectEventType {
  return (CONNECT_EVENT_TYPES as readonly string[]).includes(value);
}

/** A payload like the one Connect sends with this event type, built from the customer's own ids where it has them. */
async function examplePayload(engine: Engine, customerId: number, eventType: ConnectEventType): Promise<Record<string, unknown>> {
  const account = await repo.firstCustomerAccount(db(engine), customerId);
  const institutionId = String(account?.institution_id ?? 101732);
  const institutionLoginId = account ? String(account.institution_login_id) : undefined;
  const accounts = account ? [String(account.id)] : [];
  const sessionId = 'sandbox';
  switch (eventType) {
    case 'started':
      return { type: 'full', experience: 'default' };
    case 'institutionSelected':
      return { institutionId };
    case 'credentialsSubmitted':
      return { institutionId, sessionId };
    case 'oauthStarted':
      return { institutionId, sessionId };
    case 'mfa':
      return { institutionId, sessionId, questions: [`${institutionId}-mfa-1`] };
    case 'mfaAnswered':
      return { institutionId, sessionId };
    case 'discovered':
      return { institutionId, sessionId, accounts: accounts.length };
    case 'added':
      return { institutionId, ...(institutionLoginId ? { institutionLoginId } : {}), accounts };
    case 'invalidCredentials':
      return { institutionId, sessionId, code: 103, reason: 'The user ID or password is incorrect.' };
    case 'error':
      return { institutionId, sessionId, code: 102, reason: SANDBOX_ERROR_MESSAGES[102] };
    case 'done':
      return { reason: 'done' };
    case 'cancelled':
      return { reason: 'cancelled' };
    case 'accountsDeleted':
      return { accounts };
    case 'institutionLoginDeleted':
      return { ...(institutionLoginId ? { institutionLoginId } : {}), accounts };
  }
}

/** The target of a fired webhook: the given URL, or the webhook of the customer's latest Connect link. */
async function webhookTarget(engine: Engine, caller: Caller, customerId: number, input: FireConnectWebhookInput): Promise<ConnectWebhookTarget> {
  if (input.webhook?.trim()) {
    const url = httpUrl('webhook', input.webhook);
    const contentType = webhookContentTypeOf(input.webhookContentType);
    return { partnerId: caller.partnerId, customerId, url, contentType, headers: {}, webhookData: undefined, connectSession: null };
  }
  const link = await repo.latestLinkWithWebhook(db(engine), caller.partnerId, customerId);
  const target = link ? connectWebhookTarget(engine.runtime, linkRow(link)) : undefined;
  if (!target) {
    throw new ServiceError(
      'SandboxWebhookUnknown',
      `Customer ${customerId} has no Connect link with a webhook: give the webhook URL, or generate a Connect link with one first.`,
    );
  }
  return target;
}

/** Sends a Connect webhook of any event type for the customer through the outbox, signed like Connect's own. */
export async function fireConnectWebhook(engine: Engine, caller: Caller, input: FireConnectWebhookInput): Promise<FiredConnectWebhook> {
  assertSandboxAllowed(caller);
  const customer = await getCustomerForPartner(db(engine), caller.partnerId, input.customerId);
  const eventType = typeof input.eventType === 'string' ? input.eventType.trim() : '';
  if (!isConnectEventType(eventType)) {
    throw new ServiceError(
      'SandboxEventUnknown',
      `Invalid parameter (eventType): "${eventType}" is not a Connect event type; use one of ${CONNECT_EVENT_TYPES.join(', ')}.`,
    );
  }
  if (input.payload !== undefined && (input.payload === null || typeof input.payload !== 'object' || Array.isArray(input.payload))) {
    throw new ServiceError('InvalidParameter', 'Invalid parameter (payload): a JSON object.');
  }
  const target = await webhookTarget(engine, caller, customer.id, input);
  const payload = (input.payload as Record<string, unknown> | undefined) ?? (await examplePayload(engine, customer.id, eventType));
  const eventId = await db(engine)
    .transaction()
    .execute((tx) => enqueueConnectWebhook(tx, engine.runtime, target, eventType, payload));
  return { eventId, eventType, customerId: String(customer.id), webhook: target.url };
}

// ---------------------------------------------------------------------------------------------------------------
// TxPUSH events

/** The TxPUSH events that can be fired: class.type. */

export interface FireTxPushEventInput {
  customerId: string;
  accountId: string;
  eventType: string;
  /** For transaction events: which transaction; defaults to the account's latest. */
  transactionId?: string;
}

export interface FiredTxPushEvent {
  eventType: TxPushEventType;
  customerId: string;
  accountId: string;
  transactionId?: string;
  /** Notifications queued: one per subscription of the account for the event's class. */
  notifications: number;
}

export function isTxPushEventType(value: string): value is TxPushEventType {
  return (TXPUSH_EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * Sends the account's subscriptions of the event's class a notification of this event, carrying the account's
 * current record (or one of its transactions), through the same path as a change the engine records. Nothing
 * changes: a fired `account.deleted` leaves the account and its subscriptions in place.
 */
export async function fireTxPushEvent(engine: Engine, caller: Caller, input: FireTxPushEventInput): Promise<FiredTxPushEvent> {
  assertSandboxAllowed(caller);
  const eventType = typeof input.eventType === 'string' ? input.eventType.trim() : '';
  return db(engine)
    .transaction()
    .execute(async (tx) => {
      const customer = await getCustomerForPartner(tx, caller.partnerId, input.customerId);
      const account = await getAccountRow(tx, customer, input.accountId);
      if (!isTxPushEventType(eventType)) {
        throw new ServiceError(
          'SandboxEventUnknown',
          `Invalid parameter (eventType): "${eventType}" is not a TxPUSH event type; use one of ${TXPUSH_EVENT_TYPES.join(', ')}.`,
        );
      }
      const [cls, type] = eventType.split('.') as [EventClass, EventType];
      const subscriptions = (await subscriptionsOfAccounts(tx, [account.id])).filter((s) => s.class === cls);
      if (subscriptions.length === 0) {
        throw new ServiceError(
          'SandboxNotSubscribed',
          `Account ${account.id} has no TxPUSH subscription for ${cls} events: subscribe a listener first (POST /aggregation/v1/customers/${customer.id}/accounts/${account.id}/txpush).`,
        );
      }
      const scope = { partnerId: caller.partnerId, customerId: customer.id, accountId: account.id };
      let event: AggregationEvent;
      let transactionId: string | undefined;
      if (cls === 'account') {
        event = { class: 'account', type, ...scope, record: await accountRecord(tx, account) };
      } else {
        const wanted = input.transactionId === undefined ? undefined : parseId(input.transactionId);
        if (input.transactionId !== undefined && wanted === undefined) throw new ServiceError('ResourceNotFound', 'Transaction not found.');
        const row = await repo.findAccountTransaction(tx, customer.id, account.id, wanted);
        if (!row) {
          if (wanted !== undefined) throw new ServiceError('ResourceNotFound', 'Transaction not found.');
          throw new ServiceError(
            'SandboxNoTransaction',
            `Account ${account.id} has no transactions yet: refresh it (POST /aggregation/v1/customers/${customer.id}/accounts) or advance the customer's clock first.`,
          );
        }
        transactionId = String(row.id);
        event = { class: 'transaction', type, ...scope, record: toTransactionEventRecord(row) };
      }
      await enqueuePushNotifications(tx, engine.runtime, [event], { keepSubscriptions: true });
      return {
        eventType,
        customerId: String(customer.id),
        accountId: String(account.id),
        ...(transactionId ? { transactionId } : {}),
        notifications: subscriptions.length,
      };
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Reset

export interface CustomerReset {
  customerId: string;
  institutionLogins: number;
  accounts: number;
}

/**
 * Resets a customer to just created: removes its institution logins, accounts (each with its `deleted` event, the
 * last notification its subscriptions get), transactions, positions, TxPUSH subscriptions, sign-in sessions and
 * recorded events, and sets its clock back to the service clock. The customer itself, its Connect links and the
 * deliveries already queued stay.
 */
export async function resetCustomer(engine: Engine, caller: Caller, customerId: string): Promise<CustomerReset> {
  assertSandboxAllowed(caller);
  return db(engine)
    .transaction()
    .execute(async (tx) => {
      const customer = await getCustomerForPartner(tx, caller.partnerId, customerId);
      const logins = await repo.customerLoginIds(tx, customer.id);
      const accounts = await listAccountRows(tx, customer);
      await deleteAccountRows(engine, tx, customer, accounts);
      const left = await repo.customerSubscriptionIds(tx, customer.id);
      if (left.length > 0) {
        await repo.deleteCustomerSubscriptions(tx, customer.id);
        await cancelSubscriptionDeliveries(tx, left, { now: epochSeconds(engine.runtime.clock), reason: 'the customer was reset' });
      }
      await repo.deleteCustomerLoginsAndEvents(tx, customer.id);
      await repo.resetCustomerClock(tx, customer.id, epochSeconds(engine.runtime.clock));
      return { customerId: String(customer.id), institutionLogins: logins.length, accounts: accounts.length };
    });
}
