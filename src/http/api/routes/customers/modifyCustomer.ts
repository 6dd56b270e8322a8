import { modifyCustomer } from '../../../../modules/customers/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { CustomerIdParams, CustomerUpdate } from '../../../../contract/schemas/customers.js';

/** PUT /aggregation/v1/customers/{customerId} */
export default function modifyCustomerRoute(app: App, runtime: Runtime): void {
  app.put('/aggregation/v1/customers/:customerId', {
    schema: {
      operationId: 'ModifyCustomer',
      tags: ['Customers'],
      summary: 'Modify customer by id',
      description:
        'Changes firstName, lastName or both (a blank value clears the field); the username and type cannot change. A body with neither answers 400 (code 10025).',
      params: CustomerIdParams,
      body: CustomerUpdate,
      response: { 204: NoContent, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request, reply) => {
      await modifyCustomer(runtime, request.caller.partnerId, request.params.customerId, request.body ?? {});
      return reply.code(204).send(null);
    },
  });
}
