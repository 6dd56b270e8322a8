import { generateFullLink } from '../../../../modules/connect/service.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { ConnectParameters, ConnectUrl } from '../../../../contract/schemas/connect.js';
import { generateInput, LINK_DESCRIPTION } from './generate.js';

/** POST /connect/v2/generate */
export default function generateConnectUrl(app: App): void {
  app.post('/connect/v2/generate', {
    schema: {
      operationId: 'GenerateConnectUrl',
      tags: ['Connect'],
      summary: 'Generate Connect URL (Full)',
      description: `A link to the hosted Connect app in Full mode: the customer searches institutions, signs in, answers MFA, picks accounts, and manages linked ones. ${LINK_DESCRIPTION}`,
      body: ConnectParameters,
      response: { 200: ConnectUrl, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) => generateFullLink(app.engine, generateInput(request.caller.partnerId, request.body)),
  });
}
