import { subscribe } from '../../../../modules/txpush/service.js';
import { negotiateFormat } from '../../../negotiate.js';
import type { App } from '../../../app-types.js';
import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { TxPushSubscriptionParameters, TxPushSubscriptions } from '../../../../contract/schemas/txpush.js';

/**
 * The interface: notifications are JSON when the enabling call carried `Accept: application/json`, otherwise XML.
 * So JSON needs an Accept that names JSON and prefers it; no Accept (or a wildcard) means XML notifications.
 */
export function notificationFormatFor(accept: string | undefined): 'json' | 'xml' {
  return accept !== undefined && /json/i.test(accept) && negotiateFormat(accept) === 'json' ? 'json' : 'xml';
}

/** POST /aggregation/v1/customers/{customerId}/accounts/{accountId}/txpush */
export default function subscribeToTxPushNotifications(app: App): void {
  app.post('/aggregation/v1/customers/:customerId/accounts/:accountId/txpush', {
    schema: {
      operationId: 'SubscribeToTxPushNotifications',
      tags: ['TxPush'],
      summary: 'Subscribe to TxPush notifications',
      description:
        "Registers a listener for the account's push notifications. First the listener is verified: the service sends `GET callbackUrl?txpush_verification_code=CODE` and requires HTTP 200, `Content-Type: text/plain` and exactly CODE as the body; otherwise 400 with a code per failure (14083 address refused, 14084 unreachable, 14085 wrong status, 14086 wrong content type, 14087 wrong body). The URL must be https on port 443; http on port 80 only for test institution accounts on the Test Drive plan (14080 to 14082). Answers 201 with two subscriptions, one for `account` and one for `transaction` events, each with its own `signingKey` for verifying the `webhook-signature` header (Standard Webhooks). Notifications are JSON when this call carried `Accept: application/json`, otherwise XML. Subscribing a URL the account already has replaces its two subscriptions; an account may have 5 listeners (409, 14088). See docs/txpush.md.",
      params: AccountParams,
      body: TxPushSubscriptionParameters,
      response: { 201: TxPushSubscriptions, ...errorResponses(400, 401, 404, 406, 409) },
    },
    handler: async (request, reply) => {
      const subscriptions = await subscribe(app.engine.runtime, request.caller, request.params.customerId, request.params.accountId, {
        callbackUrl: request.body.callbackUrl,
        format: notificationFormatFor(request.headers.accept),
      });
      return reply.code(201).send({ subscriptions });
    },
  });
}
