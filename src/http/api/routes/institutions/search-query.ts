import type { Static } from 'typebox';
import type { InstitutionSearch } from '../../../../modules/institutions/service.js';
import type { InstitutionQuery } from '../../../../contract/schemas/institutions.js';

/** The query string of the institution lists as the service takes it, with the documented defaults. */
export function institutionSearchOf(q: Static<typeof InstitutionQuery>): InstitutionSearch {
  return { search: q.search, start: q.start ?? 1, limit: q.limit ?? 25, type: q.type, supportedCountries: q.supportedCountries };
}
