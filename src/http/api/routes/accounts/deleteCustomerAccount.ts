import { deleteAccount } from '../../../../modules/aggregation/accounts.service.js';
import type { App } from '../../../app-types.js';
import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';

/** DELETE /aggregation/v1/customers/{customerId}/accounts/{accountId} */
export default function deleteCustomerAccount(app: App): void {
  app.delete('/aggregation/v1/customers/:customerId/accounts/:accountId', {
    schema: {
      operationId: 'DeleteCustomerAccount',
      tags: ['Accounts'],
      summary: 'Delete customer account',
      description:
        'Deletes the account with its transactions and positions and records an account `deleted` event. When it was the last account of its institution login, the login is deleted too.',
      params: AccountParams,
      response: { 204: NoContent, ...errorResponses(401, 404, 406) },
    },
    handler: async (request, reply) => {
      await deleteAccount(app.engine, request.caller.partnerId, request.params.customerId, request.params.accountId);
      return reply.code(204).send(null);
    },
  });
}
