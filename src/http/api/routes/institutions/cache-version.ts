import type { Database } from '../../../../platform/db/database.js';
import { whenReady } from '../../../../platform/when-ready.js';
import { catalogOf } from '../../../../modules/institutions/catalog.service.js';

/**
 * What an institution list depends on besides its query: the catalogue as this process sees it, and the second
 * the answer is dated (`createdDate`, `requestedDate`), so a cached list is reused within that second only.
 */
export function catalogVersionAt(database: Database, epochSecond: number): string | Promise<string> {
  return whenReady(catalogOf(database), (catalog) => `${catalog.version}:${epochSecond}`);
}
