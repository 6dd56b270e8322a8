import { duplicateExperience } from '../../../../modules/connect/experiences.service.js';
import { epochSeconds } from '../../../../platform/clock.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { CreatedExperience, ExperienceParams, IndirectPartnerRequest } from '../../../../contract/schemas/connect.js';

/** POST /connect/experiences/{experience_id}/duplicate */
export default function createConnectExperience(app: App, runtime: Runtime): void {
  app.post('/connect/experiences/:experience_id/duplicate', {
    schema: {
      operationId: 'CreateConnectExperience',
      tags: ['Connect'],
      summary: 'Duplicate Experience for Indirect Partner',
      description:
        "Copies one of the partner's experiences (its application name, logo and colour) for an indirect partner, as a new experience of the partner named `<source name>-<indirectPartnerId>`; its id goes in a Connect link's `experience`. Duplicating the same experience for the same indirect partner again refreshes the copy and answers the same id. 404 (16621) when `experience_id` is not one of the partner's experiences.",
      params: ExperienceParams,
      body: IndirectPartnerRequest,
      response: { 200: CreatedExperience, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) =>
      duplicateExperience(
        runtime.database.kysely,
        request.caller.partnerId,
        request.params.experience_id,
        request.body.indirectPartnerId,
        epochSeconds(runtime.clock),
      ),
  });
}
