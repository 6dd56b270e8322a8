import { type Kysely, sql } from 'kysely';
import { isPostgres } from './helpers.js';

/** The size of a stored piece of a statement file. */
const CHUNK = 256 * 1024;

/**
 * Kept statement files in pieces (docs/statements.md): writing or reading a 10 MB file in one statement held the
 * event loop for a tenth of a second or more on both databases, so the content is now stored as pieces, each written
 * and read in a turn of its own. Files kept before move into pieces here; `statement_files.content` stays, empty.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('statement_file_chunks')
    .addColumn('file_id', 'text', (c) => c.notNull().references('statement_files.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('content', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('statement_file_chunks_pk', ['file_id', 'seq'])
    .execute();
  const kept = await sql<{ id: string }>`select id from statement_files where length(content) > 0`.execute(db);
  for (const { id } of kept.rows) {
    const row = await sql<{ content: Uint8Array }>`select content from statement_files where id = ${id}`.execute(db);
    const content = row.rows[0]!.content;
    for (let seq = 0, start = 0; start < content.byteLength; seq++, start += CHUNK) {
      const piece = Buffer.from(content.subarray(start, start + CHUNK));
      await sql`insert into statement_file_chunks (file_id, seq, content) values (${id}, ${seq}, ${piece})`.execute(db);
    }
    await sql`update statement_files set content = ${Buffer.alloc(0)} where id = ${id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const kept = await sql<{ id: string }>`select distinct file_id as id from statement_file_chunks`.execute(db);
  for (const { id } of kept.rows) {
    const pieces = await sql<{ content: Uint8Array }>`select content from statement_file_chunks where file_id = ${id} order by seq`.execute(db);
    const content = Buffer.concat(pieces.rows.map((p) => Buffer.from(p.content)));
    await sql`update statement_files set content = ${content} where id = ${id}`.execute(db);
  }
  await db.schema.dropTable('statement_file_chunks').execute();
}
