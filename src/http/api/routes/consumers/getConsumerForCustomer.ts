import { getConsumerOfCustomer } from '../../../../modules/consumers/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { Consumer } from '../../../../contract/schemas/consumers.js';
import { CustomerIdParams } from '../../../../contract/schemas/customers.js';

/** GET /decisioning/v1/customers/{customerId}/consumer */
export default function getConsumerForCustomer(app: App, runtime: Runtime): void {
  app.get('/decisioning/v1/customers/:customerId/consumer', {
    schema: {
      operationId: 'GetConsumerForCustomer',
      tags: ['Consumers'],
      summary: 'Get the consumer of a customer',
      description:
        "The consumer of one of the calling partner's customers. 404 (code 14001) when the customer is unknown, another partner's, or has no consumer.",
      params: CustomerIdParams,
      response: { 200: Consumer, ...errorResponses(401, 404, 406) },
    },
    handler: async (request) => getConsumerOfCustomer(runtime, request.caller.partnerId, request.params.customerId),
  });
}
