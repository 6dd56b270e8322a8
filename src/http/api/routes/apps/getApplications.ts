import { AppDetailsList, AppDetailsQuery } from '../../../../contract/schemas/apps.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { appDetails } from '../../../../modules/apps/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /applications */
export default function getApplications(app: App, runtime: Runtime): void {
  app.get('/applications', {
    schema: {
      operationId: 'GetApplications',
      tags: ['App Registration'],
      summary: 'Get App Registration Details',
      description:
        "The partner's registrations with their statuses and dates, filtered, `limit` a page (50 by default, at most 100; `start` is the page number). 400 for a bad start (16503) or limit (16504, 16505), a query parameter it does not know (16506) or a filter value of the wrong form (16507).",
      querystring: AppDetailsQuery,
      response: { 200: AppDetailsList, ...errorResponses(400, 401, 406) },
    },
    handler: async (request) => appDetails(runtime, request.caller.partnerId, request.query as Record<string, string>),
  });
}
