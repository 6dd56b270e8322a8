import { createReconnection as create } from '../../../modules/connect/components.service.js';
import type { App } from '../../app-types.js';
import { componentsErrorResponses, LoginForms, ReconnectionParams } from '../../../contract/schemas/connect-components.js';

/** POST /connect-components/customers/{customer_id}/institution-login-ids/{institution_login_id}/reconnections */
export default function createReconnection(app: App): void {
  app.post('/connect-components/customers/:customer_id/institution-login-ids/:institution_login_id/reconnections', {
    schema: {
      operationId: 'PostReconnections',
      tags: ['Connect Components'],
      summary: 'Initiate Reconnection',
      description:
        "A session that signs in again for the customer's institution login (lost connection, changed credentials, expired MFA): `url` opens the hosted Connect app's Fix flow for that login, which replaces its saved sign-in and clears its error; `elements` are the institution's sign-in fields (none at an OAuth institution). The sign-in happens in Connect, so the answer is never the reference's 203. 404 for a customer or login that is not the partner's; 400 (16603) for a login made from statement files or at an institution without a live connection.",
      params: ReconnectionParams,
      response: { 201: LoginForms, ...componentsErrorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request, reply) => {
      const answer = await create(app.engine, request.caller.partnerId, request.params.customer_id, request.params.institution_login_id);
      return reply.code(201).send(answer);
    },
  });
}
