import { getCustomerForPartner } from '../../../../modules/customers/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { Customer, CustomerIdParams } from '../../../../contract/schemas/customers.js';
import { toCustomerRecord } from '../../../../modules/customers/records.js';

/** GET /aggregation/v1/customers/{customerId} */
export default function getCustomer(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/customers/:customerId', {
    schema: {
      operationId: 'GetCustomer',
      tags: ['Customers'],
      summary: 'Get customer by id',
      description: "One of the calling partner's customers. Unknown ids and other partners' ids both answer 404 (code 14001).",
      params: CustomerIdParams,
      response: { 200: Customer, ...errorResponses(401, 404, 406) },
    },
    handler: async (request) => toCustomerRecord(await getCustomerForPartner(runtime.database.kysely, request.caller.partnerId, request.params.customerId)),
  });
}
