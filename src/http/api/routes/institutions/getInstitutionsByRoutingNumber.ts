import { errorResponses } from '../../../../contract/schemas/common.js';
import { InstitutionList, RoutingNumberParams } from '../../../../contract/schemas/institutions.js';
import { toInstitutionRecord } from '../../../../modules/institutions/records.js';
import { institutionsByRoutingNumber } from '../../../../modules/payments/routing.service.js';
import { epochSeconds } from '../../../../platform/clock.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /institution/v1/institutions/routingNumber/{routing_number} */
export default function getInstitutionsByRoutingNumber(app: App, runtime: Runtime): void {
  app.get('/institution/v1/institutions/routingNumber/:routing_number', {
    schema: {
      operationId: 'GetInstitutionsByRoutingNumber',
      tags: ['Institutions'],
      summary: 'Get institutions by routing number',
      description:
        "The institutions with this ABA routing number: the test institutions (each has its own, docs/test-profiles.md) and the institutions where the partner's customers hold accounts whose source stated it (an OFX BANKID). The catalogue states no routing numbers of its own. 400 (10010) when the number is not nine digits with a valid check digit; 404 (14007) when no institution has it. See docs/payments.md.",
      params: RoutingNumberParams,
      response: { 200: InstitutionList, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => {
      const rows = await institutionsByRoutingNumber(runtime.database, request.caller.partnerId, request.params.routing_number);
      return {
        found: rows.length,
        displaying: rows.length,
        moreAvailable: false,
        createdDate: epochSeconds(runtime.clock),
        institutions: rows.map((row) => toInstitutionRecord(row, runtime.config.publicUrl)),
      };
    },
  });
}
