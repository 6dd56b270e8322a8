import { modifyConsumer } from '../../../../modules/consumers/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { ConsumerIdParams, ConsumerUpdate } from '../../../../contract/schemas/consumers.js';

/** PUT /decisioning/v1/consumers/{consumerId} */
export default function modifyConsumerRoute(app: App, runtime: Runtime): void {
  app.put('/decisioning/v1/consumers/:consumerId', {
    schema: {
      operationId: 'ModifyConsumer',
      tags: ['Consumers'],
      summary: 'Modify consumer by id',
      description:
        'Changes the fields given and leaves the others. A blank optional field clears it, as long as ssn or birthday and phone or email remain (400, code 10005); firstName, lastName and state cannot be blank. Formats as on create (400, code 10100). A body with no field answers 400 (code 10025).',
      params: ConsumerIdParams,
      body: ConsumerUpdate,
      response: { 204: NoContent, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request, reply) => {
      await modifyConsumer(runtime, request.caller.partnerId, request.params.consumerId, request.body ?? {});
      return reply.code(204).send(null);
    },
  });
}
