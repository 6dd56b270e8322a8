import type { Database } from '../../../db/database.js';
import { catalogOf } from '../../../domain/institutions/catalog.js';

/**
 * What an institution list depends on besides its query: the catalogue as this process sees it, and the second
 * the answer is dated (`createdDate`, `requestedDate`), so a cached list is reused within that second only.
 */
export async function catalogVersionAt(database: Database, epochSecond: number): Promise<string> {
  return `${(await catalogOf(database)).version}:${epochSecond}`;
}
