import { searchCertifiedInstitutions } from '../../../../modules/institutions/service.js';
import { whenReady } from '../../../../platform/when-ready.js';
import { epochSeconds } from '../../../../platform/clock.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { cachedRead } from '../../../response-cache.js';
import { catalogVersionAt } from './cache-version.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { CertifiedInstitutionList, InstitutionQuery } from '../../../../contract/schemas/institutions.js';
import { toCertifiedInstitutionRecord } from '../../../../modules/institutions/records.js';
import { institutionSearchOf } from './search-query.js';

/** GET /institution/v2/certifiedInstitutions */
export default function getCertifiedInstitutions(app: App, runtime: Runtime): void {
  app.get('/institution/v2/certifiedInstitutions', {
    schema: {
      operationId: 'GetCertifiedInstitutions',
      tags: ['Institutions'],
      summary: 'Get certified institutions',
      description:
        'Institutions certified for at least one product, or for every product named in `type` (voa, voi, state_agg, ach, aha; several separated by commas). `search=*` returns all of them at once and ignores `start` and `limit`; other text searches like Get Institutions; without `search` the whole list is paged.',
      querystring: InstitutionQuery,
      response: { 200: CertifiedInstitutionList, ...errorResponses(400, 401, 406) },
    },
    handler: (request, reply) => {
      const requestedDate = epochSeconds(runtime.clock);
      return whenReady(catalogVersionAt(runtime.database, requestedDate), (version) =>
        cachedRead(app.responseCache, request, reply, version, async () => {
          const { institutions, ...counts } = await searchCertifiedInstitutions(runtime.database, institutionSearchOf(request.query));
          return { ...counts, requestedDate, institutions: institutions.map(toCertifiedInstitutionRecord) };
        }),
      );
    },
  });
}
