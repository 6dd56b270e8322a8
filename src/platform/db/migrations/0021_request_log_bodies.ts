import type { Kysely } from 'kysely';

const COLUMNS = [
  ['request_headers', 'text'],
  ['request_body', 'text'],
  ['request_bytes', 'integer'],
  ['response_headers', 'text'],
  ['response_body', 'text'],
  ['response_bytes', 'integer'],
] as const;

/**
 * The request log keeps each partner request's headers and bodies (secrets redacted, bodies cut at 8 KB), shown when
 * a row of the dashboard's log is opened. On a SQLite file database the table lives in the attached request log file,
 * which an unqualified ALTER TABLE finds as queries do. Rows written before have none (null).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite adds one column per ALTER TABLE.
  for (const [name, type] of COLUMNS) await db.schema.alterTable('request_log').addColumn(name, type).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of [...COLUMNS].reverse()) await db.schema.alterTable('request_log').dropColumn(name).execute();
}
