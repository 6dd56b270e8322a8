import { findExperiencesByAppName } from '../../../../modules/connect/experiences.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { ExperienceList, ExperienceQuery } from '../../../../contract/schemas/connect.js';

/** GET /connect/experiences */
export default function getAllExperience(app: App, runtime: Runtime): void {
  app.get('/connect/experiences', {
    schema: {
      operationId: 'GetAllExperience',
      tags: ['Connect'],
      summary: 'Get Experience IDs',
      description:
        "The partner's Connect experiences whose application name is `appName` (any letter case), with their ids: what a Connect link's `experience` may name besides `default`. Experiences set the look only (created with `ledgerlink experience set` or in the dashboard) and run no product, so `productCode` is empty and a `productCode` filter keeps none. 404 (16620) when none is found.",
      querystring: ExperienceQuery,
      response: { 200: ExperienceList, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => {
      const codes = (request.query.productCode ?? '')
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== '');
      return findExperiencesByAppName(runtime.database.kysely, request.caller.partnerId, request.query.appName, codes);
    },
  });
}
