import { sendJointBorrowerEmail } from '../../../../modules/connect/joint-borrowers.service.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { ConnectEmailUrl, JointBorrowerEmailParameters } from '../../../../contract/schemas/connect.js';
import { checkedPartner, LINK_DESCRIPTION } from './generate.js';

/** POST /connect/v2/send/email/jointBorrower */
export default function sendJointBorrowerConnectEmail(app: App): void {
  app.post('/connect/v2/send/email/jointBorrower', {
    schema: {
      operationId: 'SendJointBorrowerConnectEmail',
      tags: ['Connect'],
      summary: 'Send Data Connect Email - Joint Borrower',
      description: `Generates the link of Generate Data Connect URL - Joint Borrower and e-mails it to \`email.to\` as Send Connect E-mail does (through the delivery outbox, within the hourly limit: 429, code 14075). \`email.firstName\` may name both borrowers ("Marvin and Jenny"). Answers the link and the e-mail settings. ${LINK_DESCRIPTION}`,
      body: JointBorrowerEmailParameters,
      response: { 200: ConnectEmailUrl, ...errorResponses(400, 401, 404, 406, 415, 429) },
    },
    handler: async (request) => sendJointBorrowerEmail(app.engine, checkedPartner(request.caller.partnerId, request.body)),
  });
}
