import { generateJointBorrowerLink } from '../../../../modules/connect/joint-borrowers.service.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { ConnectUrl, JointBorrowerConnectParameters } from '../../../../contract/schemas/connect.js';
import { checkedPartner, LINK_DESCRIPTION } from './generate.js';

/** POST /connect/v2/generate/jointBorrower */
export default function generateJointBorrowerConnectUrl(app: App): void {
  app.post('/connect/v2/generate/jointBorrower', {
    schema: {
      operationId: 'GenerateJointBorrowerConnectUrl',
      tags: ['Connect'],
      summary: 'Generate Data Connect URL - Joint Borrower',
      description: `A Full Connect link for two borrowers: \`borrowers\` names exactly one \`primary\` and one \`jointBorrower\`, two different customers of the partner (400, 16610), each with its consumer (400, 16611; an unknown customer is 404). The link is the primary borrower's; in Connect each borrower links accounts in turn, under their own customer (docs/connect-components.md#joint-borrowers). The other fields are those of Generate Connect URL. ${LINK_DESCRIPTION}`,
      body: JointBorrowerConnectParameters,
      response: { 200: ConnectUrl, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) => generateJointBorrowerLink(app.engine, checkedPartner(request.caller.partnerId, request.body)),
  });
}
