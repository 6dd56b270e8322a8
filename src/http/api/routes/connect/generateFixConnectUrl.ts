import { generateFixLink } from '../../../../modules/connect/service.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { ConnectUrl, FixConnectParameters } from '../../../../contract/schemas/connect.js';
import { generateInput, LINK_DESCRIPTION } from './generate.js';

/** POST /connect/v2/generate/fix */
export default function generateFixConnectUrl(app: App): void {
  app.post('/connect/v2/generate/fix', {
    schema: {
      operationId: 'GenerateFixConnectUrl',
      tags: ['Connect'],
      summary: 'Generate Connect Fix URL',
      description: `A link to Connect Fix: goes straight to signing in again at the institution of the given login, and on success replaces the login's saved sign-in and clears its error status (aggregationStatusCode 0). 404 when the customer has no such institution login. ${LINK_DESCRIPTION}`,
      body: FixConnectParameters,
      response: { 200: ConnectUrl, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) =>
      generateFixLink(app.engine, { ...generateInput(request.caller.partnerId, request.body), institutionLoginId: request.body.institutionLoginId }),
  });
}
