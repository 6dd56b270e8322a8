import type { FastifyReply } from 'fastify';
import { CustomerApplicationParams, CustomerAssigned } from '../../../../contract/schemas/apps.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { setCustomerApp } from '../../../../modules/apps/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** PUT /aggregation/v1/customers/{customerId}/applications/{applicationId} */
export default function setCustomerAppId(app: App, runtime: Runtime): void {
  app.put('/aggregation/v1/customers/:customerId/applications/:applicationId', {
    schema: {
      operationId: 'SetCustomerAppID',
      tags: ['App Registration'],
      summary: 'Set Customer App ID',
      description:
        "Assigns the customer to one of the partner's approved apps (its `applicationId`, which Get Customer shows from then on); again with the same app it changes nothing. 400 when the app is not approved (16508) or the customer is already assigned to another registered app (16509); 404 for an unknown customer or application id (16501).",
      params: CustomerApplicationParams,
      response: { 200: CustomerAssigned, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request, reply) => {
      await setCustomerApp(runtime, request.caller.partnerId, request.params.customerId, request.params.applicationId);
      // The reference's 200 has no body: sent as nothing at all, not as a serialised null.
      return (reply as FastifyReply).code(200).send();
    },
  });
}
