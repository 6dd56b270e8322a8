import { getConsumer } from '../../../../modules/consumers/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { Consumer, ConsumerIdParams } from '../../../../contract/schemas/consumers.js';

/** GET /decisioning/v1/consumers/{consumerId} */
export default function getConsumerRoute(app: App, runtime: Runtime): void {
  app.get('/decisioning/v1/consumers/:consumerId', {
    schema: {
      operationId: 'GetConsumer',
      tags: ['Consumers'],
      summary: 'Get consumer by id',
      description:
        "One of the calling partner's consumers. Fields the consumer was created without are empty strings (birthday an empty object); ssn is the last four digits. Unknown ids and other partners' ids both answer 404 (code 14001).",
      params: ConsumerIdParams,
      response: { 200: Consumer, ...errorResponses(401, 404, 406) },
    },
    handler: async (request) => getConsumer(runtime, request.caller.partnerId, request.params.consumerId),
  });
}
