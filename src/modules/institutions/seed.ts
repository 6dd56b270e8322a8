import { sql } from 'kysely';
import type { Database } from '../../platform/db/database.js';
import { generateCatalog } from './catalog/generate.js';
import { bumpCatalogVersion } from './repository.js';
import { ensureOfxDirectory } from './ofx-directory.js';
import { ensureSimplefinInstitution } from './simplefin.js';
import type { InstitutionTable } from './table.js';

/** SQLite rows per insert: 52 columns x 500 rows stays under its 32766 bound parameters. */
const SQLITE_BATCH = 500;
/** PostgreSQL rows per insert: one JSON parameter of a few megabytes each. */
const POSTGRES_BATCH = 2500;

let generated: WeakRef<readonly InstitutionTable[]> | undefined;

/**
 * The generated catalogue. Only weakly kept: a process seeds a database once (its first start), and holding
 * 10,578 full rows (about 20 MB) for the rest of its life would cost more than making them again for the rare
 * second database (tests) after they were collected.
 */
function catalogRows(): readonly InstitutionTable[] {
  const rows = generated?.deref() ?? generateCatalog();
  generated = new WeakRef(rows);
  return rows;
}

async function isSeeded(database: Database): Promise<boolean> {
  return (await database.kysely.selectFrom('institutions').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Loads the institution catalogue into an empty institutions table, in one transaction (the first start of a
 * new database does this; later calls find it there and do nothing), then the OFX directory (ofx-directory.ts).
 * Several processes starting at once are safe: rows another one already wrote are skipped.
 */
export async function ensureInstitutionCatalog(database: Database): Promise<void> {
  await ensureGeneratedCatalog(database);
  // Databases seeded before these sources shipped get them on their next start.
  await ensureOfxDirectory(database);
  await ensureSimplefinInstitution(database);
}

async function ensureGeneratedCatalog(database: Database): Promise<void> {
  if (await isSeeded(database)) return;
  const rows = catalogRows();
  try {
    await database.kysely.transaction().execute(async (tx) => {
      if (database.dialect === 'postgres') {
        // One JSON document per batch, spread over the columns by name: much faster than bound VALUES lists.
        for (let i = 0; i < rows.length; i += POSTGRES_BATCH) {
          const batch = JSON.stringify(rows.slice(i, i + POSTGRES_BATCH));
          await sql`insert into institutions select * from json_populate_recordset(null::institutions, ${batch}::json) on conflict (id) do nothing`.execute(tx);
        }
      } else {
        for (let i = 0; i < rows.length; i += SQLITE_BATCH) {
          await tx
            .insertInto('institutions')
            .values(rows.slice(i, i + SQLITE_BATCH))
            .onConflict((oc) => oc.column('id').doNothing())
            .execute();
        }
      }
      await bumpCatalogVersion(tx);
    });
  } catch (e) {
    // Another process won the race to the write lock and loaded the catalogue first: that is all we wanted.
    if (await isSeeded(database)) return;
    throw e;
  }
}
