import { getConfiguration as get } from '../../../modules/connect/components.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { componentsErrorResponses, Configuration, ConfigurationParams } from '../../../contract/schemas/connect-components.js';

/** GET /connect-components/configurations/{configuration_id} */
export default function getConfiguration(app: App, runtime: Runtime): void {
  app.get('/connect-components/configurations/:configuration_id', {
    schema: {
      operationId: 'GetConfigurationsConfigurationId',
      tags: ['Connect Components'],
      summary: 'Get Configuration Details',
      description: "One of the partner's configurations; 404 (16600) for an unknown id or another partner's.",
      params: ConfigurationParams,
      response: { 200: Configuration, ...componentsErrorResponses(401, 404, 406) },
    },
    handler: async (request) => get(runtime.database.kysely, request.caller.partnerId, request.params.configuration_id),
  });
}
