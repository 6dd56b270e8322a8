import { errorResponses } from '../../../../contract/schemas/common.js';
import { CertifiedInstitutionWithRssdList, InstitutionQuery } from '../../../../contract/schemas/institutions.js';
import { searchCertifiedInstitutionsWithRssd } from '../../../../modules/institutions/service.js';
import { epochSeconds } from '../../../../platform/clock.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { institutionSearchOf } from './search-query.js';

/** GET /institution/v2/certifiedInstitutions/rssd */
export default function getCertifiedInstitutionsWithRssd(app: App, runtime: Runtime): void {
  app.get('/institution/v2/certifiedInstitutions/rssd', {
    schema: {
      operationId: 'GetCertifiedInstitutionsWithRSSD',
      tags: ['Institutions'],
      summary: 'Get certified institutions with RSSD',
      description:
        'Certified institutions with their Federal Reserve RSSD id. Neither the catalogue nor any source states an RSSD id, and none is made up, so the list is empty (200, as the reference answers when nothing matches). The query is read and refused as Get Certified Institutions reads it. See docs/institutions.md.',
      querystring: InstitutionQuery,
      response: { 200: CertifiedInstitutionWithRssdList, ...errorResponses(400, 401, 406) },
    },
    handler: async (request) => ({
      ...searchCertifiedInstitutionsWithRssd(institutionSearchOf(request.query)),
      requestedDate: epochSeconds(runtime.clock),
      institutions: [],
    }),
  });
}
