import { AppRegistrationInput, PreAppIdParams, RegisteredApplication } from '../../../../contract/schemas/apps.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { modifyApp } from '../../../../modules/apps/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** PUT /aggregation/v1/partners/applications/{preAppId} */
export default function modifyAppRegistration(app: App, runtime: Runtime): void {
  app.put('/aggregation/v1/partners/applications/:preAppId', {
    schema: {
      operationId: 'ModifyAppRegistration',
      tags: ['App Registration'],
      summary: 'Modify App Registration',
      description:
        'Replaces the registration and submits it again: it is pending (P) until approved again (as at registration); an application id it had stays, and customers assigned to it stay assigned. 404 (16500) for a preAppId the partner never registered.',
      params: PreAppIdParams,
      body: AppRegistrationInput,
      response: { 200: RegisteredApplication, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) => modifyApp(runtime, request.caller.partnerId, request.params.preAppId, request.body),
  });
}
