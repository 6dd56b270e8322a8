import { createConsumer } from '../../../../modules/consumers/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { CreatedConsumer, NewConsumer } from '../../../../contract/schemas/consumers.js';
import { CustomerIdParams } from '../../../../contract/schemas/customers.js';

/** POST /decisioning/v1/customers/{customerId}/consumer */
export default function createConsumerRoute(app: App, runtime: Runtime): void {
  app.post('/decisioning/v1/customers/:customerId/consumer', {
    schema: {
      operationId: 'CreateConsumer',
      tags: ['Consumers'],
      summary: 'Create consumer for the customer',
      description:
        "Creates the consumer (the person reports name) of one of the calling partner's customers; a customer has at most one (409, code 11000). firstName, lastName and state are required, and either ssn or birthday and either phone or email (400, code 10005). Formats are checked field by field (400, code 10100, naming the field). The personal data is stored encrypted; answers show only the last four digits of the SSN.",
      params: CustomerIdParams,
      body: NewConsumer,
      response: { 201: CreatedConsumer, ...errorResponses(400, 401, 404, 406, 409, 415) },
    },
    handler: async (request, reply) => reply.code(201).send(await createConsumer(runtime, request.caller.partnerId, request.params.customerId, request.body)),
  });
}
