import { searchInstitutions } from '../../../../modules/institutions/service.js';
import { whenReady } from '../../../../platform/when-ready.js';
import { epochSeconds } from '../../../../platform/clock.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { cachedRead } from '../../../response-cache.js';
import { catalogVersionAt } from './cache-version.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { InstitutionList, InstitutionQuery } from '../../../../contract/schemas/institutions.js';
import { toInstitutionRecord } from '../../../../modules/institutions/records.js';
import { institutionSearchOf } from './search-query.js';
import { institutionPaths } from './paths.js';

/** GET /institution/v2/institutions (also under /institutions/v2/institutions) */
export default function getInstitutions(app: App, runtime: Runtime): void {
  for (const { path, ...names } of institutionPaths('/institution/v2/institutions', 'GetInstitutions')) {
    app.get(path, {
      schema: {
        ...names,
        tags: ['Institutions'],
        summary: 'Get institutions',
        description:
          'Searches the institution catalogue: `search` is found in the name, home page or login page (case and accents ignored), best matches first: exact, then prefix, then word, then substring, names before web addresses. Without `search` every institution is listed; a blank `search` is an error. `start` (from 1) and `limit` (up to 1000) page the result.',
        querystring: InstitutionQuery,
        response: { 200: InstitutionList, ...errorResponses(400, 401, 406) },
      },
      handler: (request, reply) => {
        const createdDate = epochSeconds(runtime.clock);
        return whenReady(catalogVersionAt(runtime.database, createdDate), (version) =>
          cachedRead(app.responseCache, request, reply, version, async () => {
            const { institutions, ...counts } = await searchInstitutions(runtime.database, institutionSearchOf(request.query));
            return { ...counts, createdDate, institutions: institutions.map((row) => toInstitutionRecord(row, runtime.config.publicUrl)) };
          }),
        );
      },
    });
  }
}
