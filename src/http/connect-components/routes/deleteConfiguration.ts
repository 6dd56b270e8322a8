import { deleteConfiguration as remove } from '../../../modules/connect/components.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { NoContent } from '../../../contract/schemas/common.js';
import { componentsErrorResponses, ConfigurationParams } from '../../../contract/schemas/connect-components.js';

/** DELETE /connect-components/configurations/{configuration_id} */
export default function deleteConfiguration(app: App, runtime: Runtime): void {
  app.delete('/connect-components/configurations/:configuration_id', {
    schema: {
      operationId: 'DeleteConfigurationsConfigurationId',
      tags: ['Connect Components'],
      summary: 'Delete Configuration',
      description:
        "Removes one of the partner's configurations (204); 404 (16600) for an unknown id or another partner's. Sessions made with it offer every account from then on.",
      params: ConfigurationParams,
      response: { 204: NoContent, ...componentsErrorResponses(401, 404, 406) },
    },
    handler: async (request, reply) => {
      await remove(runtime.database.kysely, request.caller.partnerId, request.params.configuration_id);
      return reply.code(204).send(null);
    },
  });
}
