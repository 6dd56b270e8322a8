import type { Executor } from '../../platform/db/database.js';
import type { OfxServerTable } from './table.js';

/** Rows per INSERT of insertOfxServers. */
const BATCH = 200;

/** Whether the shipped directory's servers were loaded. */
export async function hasDirectoryServers(db: Executor): Promise<boolean> {
  return (await db.selectFrom('ofx_servers').select('institution_id').where('source', '=', 'directory').limit(1).executeTakeFirst()) !== undefined;
}

/** Inserts OFX servers, a batch per statement. */
export async function insertOfxServers(db: Executor, servers: readonly OfxServerTable[]): Promise<void> {
  for (let i = 0; i < servers.length; i += BATCH)
    await db
      .insertInto('ofx_servers')
      .values(servers.slice(i, i + BATCH))
      .execute();
}

/** Stores the OFX server of an institution, replacing the one it had. */
export async function upsertOfxServer(db: Executor, server: OfxServerTable): Promise<void> {
  await db
    .insertInto('ofx_servers')
    .values(server)
    .onConflict((oc) => oc.column('institution_id').doUpdateSet({ ...server }))
    .execute();
}

/** The OFX server of an institution, if it has one. */
export async function findOfxServer(db: Executor, institutionId: number): Promise<OfxServerTable | undefined> {
  return db.selectFrom('ofx_servers').selectAll().where('institution_id', '=', institutionId).executeTakeFirst();
}

/** The institutions that have an OFX server. */
export async function listOfxServerInstitutionIds(db: Executor): Promise<number[]> {
  return (await db.selectFrom('ofx_servers').select('institution_id').execute()).map((r) => Number(r.institution_id));
}
