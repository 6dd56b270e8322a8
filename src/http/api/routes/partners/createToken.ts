import type { App } from '../../../app-types.js';
import { authenticatePartner } from '../../../../modules/partners/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import { appKeyOf } from '../../../plugins/auth.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { ServiceError } from '../../../../contract/errors/service-error.js';
import { AccessToken, PartnerCredentials } from '../../../../contract/schemas/partners.js';

/** POST /aggregation/v2/partners/authentication */
export default function createToken(app: App, runtime: Runtime): void {
  app.post('/aggregation/v2/partners/authentication', {
    schema: {
      operationId: 'CreateToken',
      tags: ['Authentication'],
      summary: 'Create access token',
      description:
        'Exchanges the partner id and secret (with the Service-App-Key header) for a token valid two hours. Five consecutive failures lock the partner.',
      security: [{ ServiceAppKey: [] }],
      body: PartnerCredentials,
      response: { 200: AccessToken, ...errorResponses(400, 401, 406, 415) },
    },
    handler: async (request) => {
      const appKey = appKeyOf(request, runtime);
      if (!appKey) throw new ServiceError('MissingAppKey');
      const { token } = await authenticatePartner(runtime, appKey, request.body);
      return { token };
    },
  });
}
