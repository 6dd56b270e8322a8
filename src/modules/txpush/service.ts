/**
 * TxPUSH subscriptions: enabling push for an account (after verifying the listener), disabling it, and removing
 * one subscription. Every call is scoped to the calling partner's customer: other ids are unknown ids (404).
 */
import { cancelSubscriptionDeliveries } from '../../outbox/cancel.js';
import { listenerUrlProblem, type ListenerRule } from '../../outbox/policy.js';
import { isTestInstitution } from '../../connectors/testbank/institutions.js';
import type { ErrorName } from '../../contract/errors/catalogue.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { epochSeconds } from '../../platform/clock.js';
import type { Runtime } from '../../platform/dependencies.js';
import { getAccountRow, parseId } from '../aggregation/accounts.service.js';
import type { EventClass } from '../aggregation/table.js';
import { getCustomerForPartner } from '../customers/service.js';
import type { Caller } from '../partners/service.js';
import { newSigningKey } from './keys.js';
import { deleteSubscriptions, findCustomerSubscription, insertSubscriptions, subscriptionsOfAccounts } from './repository.js';
import type { NotificationFormat } from './table.js';
import { verifyListener } from './verify.service.js';

/** Listener URLs one account may have at once (each with an account and a transaction subscription). */
export const MAX_LISTENERS_PER_ACCOUNT = 5;

/** The longest a verification request may take, whatever the delivery timeout. */
const MAX_VERIFICATION_MS = 10_000;

export interface SubscriptionRecord {
  id: number;
  accountId: number;
  type: EventClass;
  callbackUrl: string;
  signingKey: string;
}

/** Whether a listener for this account may use plain http: a test institution's account on the Test Drive plan. */
export function allowsPlainHttp(input: { plan: 'testdrive' | 'production'; institutionId: number }): boolean {
  return input.plan === 'testdrive' && isTestInstitution(input.institutionId);
}

const RULE_ERRORS: Record<ListenerRule, ErrorName> = { url: 'ListenerUrlInvalid', https: 'ListenerHttpsRequired', port: 'ListenerPortNotAllowed' };

/**
 * Subscribe to TxPUSH notifications: checks the listener URL against the target rules, verifies the listener, and
 * stores one account and one transaction subscription, each with its own signing key (returned once, stored
 * encrypted). Subscribing a callback URL the account already has replaces those two subscriptions. Notifications
 * go out in `format`, the Accept of this call.
 */
export async function subscribe(
  runtime: Runtime,
  caller: Caller,
  customerId: string,
  accountId: string,
  input: { callbackUrl: string; format: NotificationFormat },
): Promise<SubscriptionRecord[]> {
  const db = runtime.database.kysely;
  const customer = await getCustomerForPartner(db, caller.partnerId, customerId);
  const account = await getAccountRow(db, customer, accountId);
  const callbackUrl = input.callbackUrl.trim();
  const problem = listenerUrlProblem(callbackUrl, {
    allowHttp: allowsPlainHttp({ plan: caller.plan, institutionId: Number(account.institution_id) }),
    extraPorts: runtime.config.mode === 'sandbox' ? runtime.config.pushExtraPorts : [],
  });
  if (problem) throw new ServiceError(RULE_ERRORS[problem.rule], `The callbackUrl is refused: ${problem.reason}.`);
  await verifyListener(callbackUrl, { mode: runtime.config.mode, timeoutMs: Math.min(runtime.config.deliveryTimeoutMs, MAX_VERIFICATION_MS) });

  const now = epochSeconds(runtime.clock);
  const accountKey = newSigningKey(runtime.keys);
  const transactionKey = newSigningKey(runtime.keys);
  const rows = await db.transaction().execute(async (tx) => {
    // The account may have gone while the listener was being verified.
    await getAccountRow(tx, customer, account.id);
    const existing = await subscriptionsOfAccounts(tx, [account.id]);
    const replaced = existing.filter((s) => s.callback_url === callbackUrl).map((s) => s.id);
    const listeners = new Set(existing.filter((s) => s.callback_url !== callbackUrl).map((s) => s.callback_url));
    if (listeners.size >= MAX_LISTENERS_PER_ACCOUNT) {
      throw new ServiceError(
        'TooManyListeners',
        `Account ${account.id} already has ${listeners.size} TxPUSH listeners, the most it may have: disable one (DELETE .../subscriptions/{subscriptionId}) first.`,
      );
    }
    await deleteSubscriptions(tx, replaced);
    await cancelSubscriptionDeliveries(tx, replaced, { now, reason: 'the subscription was replaced' });
    const common = {
      partner_id: caller.partnerId,
      customer_id: customer.id,
      account_id: account.id,
      callback_url: callbackUrl,
      format: input.format,
      created_at: now,
    };
    return insertSubscriptions(tx, [
      { ...common, class: 'account', signing_key_encrypted: accountKey.sealed },
      { ...common, class: 'transaction', signing_key_encrypted: transactionKey.sealed },
    ]);
  });
  return rows.map((r) => ({
    id: Number(r.id),
    accountId: Number(r.account_id),
    type: r.class,
    callbackUrl: r.callback_url,
    signingKey: r.class === 'account' ? accountKey.signingKey : transactionKey.signingKey,
  }));
}

/** Disable TxPUSH Notifications: removes every subscription of the account and cancels their open notifications. */
export async function disableAccount(runtime: Runtime, partnerId: string, customerId: string, accountId: string): Promise<void> {
  await runtime.database.kysely.transaction().execute(async (tx) => {
    const customer = await getCustomerForPartner(tx, partnerId, customerId);
    const account = await getAccountRow(tx, customer, accountId);
    const ids = (await subscriptionsOfAccounts(tx, [account.id])).map((s) => s.id);
    await deleteSubscriptions(tx, ids);
    await cancelSubscriptionDeliveries(tx, ids, { now: epochSeconds(runtime.clock), reason: 'push notifications were disabled for the account' });
  });
}

/** Delete TxPUSH Subscription: removes one subscription of the customer and cancels its open notifications. */
export async function deleteSubscription(runtime: Runtime, partnerId: string, customerId: string, subscriptionId: string): Promise<void> {
  await runtime.database.kysely.transaction().execute(async (tx) => {
    const customer = await getCustomerForPartner(tx, partnerId, customerId);
    const id = parseId(subscriptionId);
    const row = id === undefined ? undefined : await findCustomerSubscription(tx, partnerId, customer.id, id);
    if (!row) throw new ServiceError('ResourceNotFound', 'Subscription not found.');
    await deleteSubscriptions(tx, [row.id]);
    await cancelSubscriptionDeliveries(tx, [row.id], { now: epochSeconds(runtime.clock), reason: 'the subscription was deleted' });
  });
}
