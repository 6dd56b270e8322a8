import { AppRegistrationInput, RegisteredApplication } from '../../../../contract/schemas/apps.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { registerApp } from '../../../../modules/apps/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** POST /aggregation/v1/partners/applications */
export default function registerAppRoute(app: App, runtime: Runtime): void {
  app.post('/aggregation/v1/partners/applications', {
    schema: {
      operationId: 'RegisterApp',
      tags: ['App Registration'],
      summary: 'Register App',
      description:
        'Registers an app for OAuth institutions; it starts pending (P). In sandbox mode it is approved by itself ten minutes later on the service clock; in production mode when the operator runs `ledgerlink apps approve PREAPPID`. The approval gives it an application id. 400 for a URL that is not http(s) (10010) or an image that is not a Base64 SVG under 50 KB (16512). See docs/app-registration.md.',
      body: AppRegistrationInput,
      response: { 201: RegisteredApplication, ...errorResponses(400, 401, 406, 415) },
    },
    handler: async (request, reply) => reply.code(201).send(await registerApp(runtime, request.caller.partnerId, request.body)),
  });
}
