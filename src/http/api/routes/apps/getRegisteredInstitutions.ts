import { AppInstitutionList, AppInstitutionsQuery, ApplicationIdParams } from '../../../../contract/schemas/apps.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { registeredInstitutions } from '../../../../modules/apps/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /applications/{application_id}/institutions */
export default function getRegisteredInstitutions(app: App, runtime: Runtime): void {
  app.get('/applications/:application_id/institutions', {
    schema: {
      operationId: 'GetRegisteredInstitutions',
      tags: ['App Registration'],
      summary: 'Get App Registration Status by Institution',
      description:
        "The institutions the app is registered at: every institution of the catalogue that signs in through OAuth (the test bank's OAuth institution, the well-known banks marked OAuth, Enable Banking's banks), `status` true once the app is approved. 25 a page by default (at most 1000; `start` is the page number). 404 for an application id the partner has none of (16501), or an `institution_id` the app does not cover (16502).",
      params: ApplicationIdParams,
      querystring: AppInstitutionsQuery,
      response: { 200: AppInstitutionList, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => registeredInstitutions(runtime, request.caller.partnerId, request.params.application_id, request.query),
  });
}
