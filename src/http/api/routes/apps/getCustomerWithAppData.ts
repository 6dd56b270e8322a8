import { CustomerWithAppData } from '../../../../contract/schemas/apps.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { CustomerIdParams } from '../../../../contract/schemas/customers.js';
import { customerWithAppData } from '../../../../modules/apps/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /aggregation/v1/customers/{customerId}/application */
export default function getCustomerWithAppData(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/customers/:customerId/application', {
    schema: {
      operationId: 'GetCustomerWithAppData',
      tags: ['Customers'],
      summary: 'Get Customer With App Data by ID',
      description:
        "The customer with the id and name of the registered app it is assigned to (Set Customer App ID). Its dates are strings of epoch seconds here, as the reference gives them; names it has none of are empty. 404 for an unknown customer, when the partner has no approved app (16510), or when the customer is assigned to none of the partner's apps (16511).",
      params: CustomerIdParams,
      response: { 200: CustomerWithAppData, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => customerWithAppData(runtime, request.caller.partnerId, request.params.customerId),
  });
}
