import type { Database } from '../../platform/db/database.js';
import { generateCatalog } from './catalog/generate.js';
import { bumpCatalogVersion, hasInstitutions, insertCatalogRows } from './repository.js';
import { ensureOfxDirectory } from './ofx-directory.service.js';
import { ensureSourceInstitutions } from './sources.service.js';
import type { InstitutionTable } from './table.js';

let generated: WeakRef<readonly InstitutionTable[]> | undefined;

/**
 * The generated catalogue. Only weakly kept: a process seeds a database once (its first start), and holding
 * 10,579 full rows (about 20 MB) for the rest of its life would cost more than making them again for the rare
 * second database (tests) after they were collected.
 */
function catalogRows(): readonly InstitutionTable[] {
  const rows = generated?.deref() ?? generateCatalog();
  generated = new WeakRef(rows);
  return rows;
}

/**
 * Loads the institution catalogue into an empty institutions table, in one transaction (the first start of a
 * new database does this; later calls find it there and do nothing), then the OFX directory (ofx-directory.service.ts)
 * and the institutions connector sources bring (sources.service.ts).
 * Several processes starting at once are safe: rows another one already wrote are skipped.
 */
export async function ensureInstitutionCatalog(database: Database): Promise<void> {
  await ensureGeneratedCatalog(database);
  // Databases seeded before these sources shipped get them on their next start.
  await ensureOfxDirectory(database);
  await ensureSourceInstitutions(database);
}

async function ensureGeneratedCatalog(database: Database): Promise<void> {
  if (await hasInstitutions(database.kysely)) return;
  const rows = catalogRows();
  try {
    await database.kysely.transaction().execute(async (tx) => {
      await insertCatalogRows(tx, database.dialect, rows);
      await bumpCatalogVersion(tx);
    });
  } catch (e) {
    // Another process won the race to the write lock and loaded the catalogue first: that is all we wanted.
    if (await hasInstitutions(database.kysely)) return;
    throw e;
  }
}
