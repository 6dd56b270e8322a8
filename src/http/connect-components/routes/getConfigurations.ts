import { listConfigurations } from '../../../modules/connect/components.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { componentsErrorResponses, ConfigurationList } from '../../../contract/schemas/connect-components.js';

/** GET /connect-components/configurations */
export default function getConfigurations(app: App, runtime: Runtime): void {
  app.get('/connect-components/configurations', {
    schema: {
      operationId: 'GetConfigurations',
      tags: ['Connect Components'],
      summary: 'Get All Configurations for Current Partner',
      description: "The partner's Connect Components configurations, oldest first.",
      response: { 200: ConfigurationList, ...componentsErrorResponses(401, 406) },
    },
    handler: async (request) => listConfigurations(runtime.database.kysely, request.caller.partnerId),
  });
}
