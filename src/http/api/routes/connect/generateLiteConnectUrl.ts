import { generateLiteLink } from '../../../../modules/connect/service.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { ConnectUrl, LiteConnectParameters } from '../../../../contract/schemas/connect.js';
import { generateInput, LINK_DESCRIPTION } from './generate.js';

/** POST /connect/v2/generate/lite */
export default function generateLiteConnectUrl(app: App): void {
  app.post('/connect/v2/generate/lite', {
    schema: {
      operationId: 'GenerateLiteConnectUrl',
      tags: ['Connect'],
      summary: 'Generate Connect Lite URL',
      description: `A link to Connect Lite at one institution: sign-in, MFA and account choice, no institution search and no account management. The institution must exist (404, 14006), be one the customer may link at (403, 14061) and have a connector (400, 14062). ${LINK_DESCRIPTION}`,
      body: LiteConnectParameters,
      response: { 200: ConnectUrl, ...errorResponses(400, 401, 403, 404, 406, 415) },
    },
    handler: async (request) =>
      generateLiteLink(app.engine, { ...generateInput(request.caller.partnerId, request.body), institutionId: request.body.institutionId }),
  });
}
