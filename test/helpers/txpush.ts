import { XMLParser } from 'fast-xml-parser';
import { startListener, type Answer, type Listener, type Received } from './listener.js';
import type { TestContext, TestPartner } from './context.js';

export const VERIFICATION_PARAMETER = 'txpush_verification_code';

/** The verification code a request carries, or undefined for notifications. */
export function verificationCodeOf(request: Received): string | undefined {
  return new URL(request.path, 'http://listener').searchParams.get(VERIFICATION_PARAMETER) ?? undefined;
}

/** The answer a correct listener gives: 200, text/plain, exactly the code. */
export function correctVerification(request: Received): Answer {
  return { status: 200, body: verificationCodeOf(request)!, headers: { 'content-type': 'text/plain; charset=utf-8' } };
}

/** A listener that answers verification requests correctly and notifications as `notification` says (200 by default). */
export async function startPushListener(
  notification: (request: Received, index: number) => Answer = () => ({ status: 200 }),
): Promise<Listener & { notifications(): Received[] }> {
  const listener = await startListener((req, i) =>
    req.method === 'GET' && verificationCodeOf(req) !== undefined ? correctVerification(req) : notification(req, i),
  );
  return Object.assign(listener, { notifications: () => listener.requests.filter((r) => r.method === 'POST') });
}

export interface SubscriptionJson {
  id: number;
  accountId: number;
  type: 'account' | 'transaction';
  callbackUrl: string;
  signingKey: string;
}

/** Calls Subscribe to TxPUSH Notifications and returns the raw response. */
export function subscribeRequest(
  ctx: TestContext,
  partner: TestPartner,
  customerId: string,
  accountId: string,
  callbackUrl: string,
  accept = 'application/json',
) {
  return ctx.app.inject({
    method: 'POST',
    url: `/aggregation/v1/customers/${customerId}/accounts/${accountId}/txpush`,
    headers: { ...partner.headers, accept },
    payload: { callbackUrl },
  });
}

/** Subscribes (failing the test on anything but 201) and returns the account and the transaction subscription. */
export async function subscribe(
  ctx: TestContext,
  partner: TestPartner,
  customerId: string,
  accountId: string,
  callbackUrl: string,
  accept = 'application/json',
): Promise<{ account: SubscriptionJson; transaction: SubscriptionJson }> {
  const res = await subscribeRequest(ctx, partner, customerId, accountId, callbackUrl, accept);
  if (res.statusCode !== 201) throw new Error(`subscribing failed: ${res.statusCode} ${res.body}`);
  const subs: SubscriptionJson[] = accept.includes('xml')
    ? (
        new XMLParser({ parseTagValue: false, isArray: (name) => name === 'subscription' }).parse(res.body).subscriptions.subscription as Record<
          string,
          string
        >[]
      ).map((s) => ({
        id: Number(s.id),
        accountId: Number(s.accountId),
        type: s.type as SubscriptionJson['type'],
        callbackUrl: s.callbackUrl!,
        signingKey: s.signingKey!,
      }))
    : res.json<{ subscriptions: SubscriptionJson[] }>().subscriptions;
  return { account: subs.find((s) => s.type === 'account')!, transaction: subs.find((s) => s.type === 'transaction')! };
}

/** Creates a TxPUSH test transaction (failing the test on anything but 201). */
export async function createTestTransaction(
  ctx: TestContext,
  partner: TestPartner,
  customerId: string,
  accountId: string,
  body: Record<string, unknown>,
): Promise<{ id: number; createdDate: number }> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/aggregation/v1/customers/${customerId}/accounts/${accountId}/transactions`,
    headers: partner.headers,
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`creating a test transaction failed: ${res.statusCode} ${res.body}`);
  return res.json();
}
