import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * A kept statement file's pieces are written before the upload's last transaction, each in a short transaction of
 * its own, and that last transaction marks the file stored (`stored_at`): writing a 10 MB file's pieces and committing
 * them in the last transaction held every other request of the process for up to a tenth of a second (docs/benchmarks.md,
 * "Imports against the goal"). A file not yet marked is offered to nobody; files kept before were stored whole.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('statement_files').addColumn('stored_at', 'bigint').execute();
  await sql`update statement_files set stored_at = created_at`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from statement_files where stored_at is null`.execute(db);
  await db.schema.alterTable('statement_files').dropColumn('stored_at').execute();
}
