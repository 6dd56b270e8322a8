import { disableAccount } from '../../../../modules/txpush/service.js';
import type { App } from '../../../app-types.js';
import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';

/** DELETE /aggregation/v1/customers/{customerId}/accounts/{accountId}/txpush */
export default function disableTxPushNotifications(app: App): void {
  app.delete('/aggregation/v1/customers/:customerId/accounts/:accountId/txpush', {
    schema: {
      operationId: 'DisableTxPushNotifications',
      tags: ['TxPush'],
      summary: 'Disable TxPush notifications',
      description:
        'Deletes every TxPush subscription of the account, and cancels their notifications not yet delivered. 204 also when the account had none; 404 for an unknown account.',
      params: AccountParams,
      response: { 204: NoContent, ...errorResponses(401, 404, 406) },
    },
    handler: async (request, reply) => {
      await disableAccount(app.engine.runtime, request.caller.partnerId, request.params.customerId, request.params.accountId);
      return reply.code(204).send(null);
    },
  });
}
