import { deleteSubscription } from '../../../../modules/txpush/service.js';
import type { App } from '../../../app-types.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { SubscriptionParams } from '../../../../contract/schemas/txpush.js';

/** DELETE /aggregation/v1/customers/{customerId}/subscriptions/{subscriptionId} */
export default function deleteTxPushSubscription(app: App): void {
  app.delete('/aggregation/v1/customers/:customerId/subscriptions/:subscriptionId', {
    schema: {
      operationId: 'DeleteTxPushSubscription',
      tags: ['TxPush'],
      summary: 'Delete a TxPush subscription',
      description:
        'Deletes one subscription (the account or the transaction one of a listener) and cancels its notifications not yet delivered. The other subscription of the listener stays. 404 for an unknown subscription.',
      params: SubscriptionParams,
      response: { 204: NoContent, ...errorResponses(401, 404, 406) },
    },
    handler: async (request, reply) => {
      await deleteSubscription(app.engine.runtime, request.caller.partnerId, request.params.customerId, request.params.subscriptionId);
      return reply.code(204).send(null);
    },
  });
}
