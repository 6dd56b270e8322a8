import { sendConnectEmail as send } from '../../../../modules/connect/service.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { ConnectEmailParameters, ConnectEmailUrl } from '../../../../contract/schemas/connect.js';
import { generateInput, LINK_DESCRIPTION } from './generate.js';

/** POST /connect/v2/send/email */
export default function sendConnectEmail(app: App): void {
  app.post('/connect/v2/send/email', {
    schema: {
      operationId: 'SendConnectEmail',
      tags: ['Connect'],
      summary: 'Send Connect e-mail',
      description: `Generates a Full Connect link and e-mails it to \`email.to\` with a button that opens it (subject, greeting, company name, signature lines, address and support phone from \`email\`). Sent through the delivery outbox: via SMTP_URL, or kept in the local mailbox (\`ledgerlink mail list\`; always for Test Drive partners unless the operator allows them SMTP). A partner may queue 100 e-mails an hour by default (429, code 14075, with Retry-After beyond). Answers the link and the e-mail settings. ${LINK_DESCRIPTION}`,
      body: ConnectEmailParameters,
      response: { 200: ConnectEmailUrl, ...errorResponses(400, 401, 404, 406, 415, 429) },
    },
    handler: async (request) => send(app.engine, { ...generateInput(request.caller.partnerId, request.body), email: request.body.email }),
  });
}
