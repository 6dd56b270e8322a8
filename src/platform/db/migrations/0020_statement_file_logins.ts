import { sql, type Kysely } from 'kysely';

/**
 * Where an institution login's data comes from: `connector` (it signs in at the institution, every login before
 * this migration) or `statement-file` (uploaded OFX/QFX or CSV files, no credentials, nothing to refresh). A
 * customer has at most one statement-file login per institution: every upload there merges into it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('institution_logins')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('connector'))
    .execute();
  // A partial index: the same statement both dialects accept (Kysely's builder would bind the literal as a parameter).
  await sql`create unique index institution_logins_statement_file on institution_logins (customer_id, institution_id) where source = 'statement-file'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('institution_logins_statement_file').execute();
  await db.schema.alterTable('institution_logins').dropColumn('source').execute();
}
