import { createLoginForm as create } from '../../../modules/connect/components.service.js';
import type { App } from '../../app-types.js';
import { componentsErrorResponses, InstitutionParams, LoginFormRequest, LoginForms } from '../../../contract/schemas/connect-components.js';

/** POST /connect-components/institutions/{institution_id}/login-forms */
export default function createLoginForm(app: App): void {
  app.post('/connect-components/institutions/:institution_id/login-forms', {
    schema: {
      operationId: 'PostInstitutionsInstitutionIdLoginForms',
      tags: ['Connect Components'],
      summary: 'Create Login Form',
      description:
        "A session at an institution that signs in with a form (400, 16602 for an OAuth institution): `elements` are the institution's sign-in fields (labels in English, ids of this session), and `url` (a Ledgerlink addition) opens that form in the hosted Connect app, which signs in, asks MFA questions and lets the customer choose the accounts (those `configurationId`'s configuration keeps). `language` is one of en, en-us, es, es-us, fr, fr-ca. The customer (404), the institution (404, 14006), that the customer may link there (403, 14061) and the configuration (404, 16600) are checked first.",
      params: InstitutionParams,
      body: LoginFormRequest,
      response: { 201: LoginForms, ...componentsErrorResponses(400, 401, 403, 404, 406, 415) },
    },
    handler: async (request, reply) => {
      const answer = await create(app.engine, request.caller.partnerId, request.params.institution_id, request.body);
      return reply.code(201).send(answer);
    },
  });
}
