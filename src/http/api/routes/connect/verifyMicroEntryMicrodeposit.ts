import { generateMicroEntryLink } from '../../../../modules/connect/service.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { ConnectUrl, MicroEntryConnectParameters } from '../../../../contract/schemas/connect.js';
import { generateInput, LINK_DESCRIPTION } from './generate.js';

/** POST /connect/v2/generate/microentry/verify */
export default function verifyMicroEntryMicrodeposit(app: App): void {
  app.post('/connect/v2/generate/microentry/verify', {
    schema: {
      operationId: 'VerifyMicroEntryMicrodeposit',
      tags: ['Connect'],
      summary: 'Account Validation Assistant User Verification of Microdeposits',
      description: `A Connect link to a page where the customer enters the two micro entry amounts found on the account \`accountId\` (see Initiate Micro Entries); the page says while they have not landed, counts wrong answers as Verify Micro Entries does and ends with \`done\` once verified. 404 when the customer has no micro entries to that account. ${LINK_DESCRIPTION}`,
      body: MicroEntryConnectParameters,
      response: { 200: ConnectUrl, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) =>
      generateMicroEntryLink(app.engine, { ...generateInput(request.caller.partnerId, request.body), accountId: request.body.accountId }),
  });
}
