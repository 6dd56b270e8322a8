import { AppStatuses, AppStatusQuery } from '../../../../contract/schemas/apps.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { appStatuses } from '../../../../modules/apps/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /aggregation/v2/partners/applications */
export default function getAppRegistrationStatus(app: App, runtime: Runtime): void {
  app.get('/aggregation/v2/partners/applications', {
    schema: {
      operationId: 'GetAppRegistrationStatus',
      deprecated: true,
      tags: ['App Registration'],
      summary: 'Get App Registration Status (Deprecated)',
      description:
        "The partner's registrations and their statuses, filtered (dates: at or after the epoch seconds given), `pageSize` a page (1 by default, at most 100). 404 when `preAppId` (16500) or `applicationId` (16501) names none of the partner's registrations. The reference deprecates it for Get App Registration Details.",
      querystring: AppStatusQuery,
      response: { 200: AppStatuses, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => appStatuses(runtime, request.caller.partnerId, request.query),
  });
}
