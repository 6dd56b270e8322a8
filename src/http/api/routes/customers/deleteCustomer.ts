import { deleteCustomer } from '../../../../modules/customers/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { CustomerIdParams } from '../../../../contract/schemas/customers.js';

/** DELETE /aggregation/v1/customers/{customerId} */
export default function deleteCustomerRoute(app: App, runtime: Runtime): void {
  app.delete('/aggregation/v1/customers/:customerId', {
    schema: {
      operationId: 'DeleteCustomer',
      tags: ['Customers'],
      summary: 'Delete customer by id',
      description:
        'Deletes the customer and everything it owns (institution logins, accounts, transactions, subscriptions) in one transaction. It does not ask for confirmation.',
      params: CustomerIdParams,
      response: { 204: NoContent, ...errorResponses(401, 404, 406) },
    },
    handler: async (request, reply) => {
      await deleteCustomer(runtime, request.caller.partnerId, request.params.customerId);
      return reply.code(204).send(null);
    },
  });
}
