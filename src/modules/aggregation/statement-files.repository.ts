/** The queries of kept statement files and the periods they gave (statement-files.service.ts). */
import type { Executor } from '../../platform/db/database.js';
import type { StatementFileChunkTable, StatementFileRow, StatementFileTable, StatementPeriodRow, StatementPeriodTable } from './statement-files.table.js';

/** Adds a file's row unless the customer has one of the same content; the id of the one there, and whether it is stored. */
export async function insertStatementFile(db: Executor, row: StatementFileTable): Promise<{ id: string; stored: boolean }> {
  await db
    .insertInto('statement_files')
    .values(row)
    .onConflict((oc) => oc.columns(['customer_id', 'sha256']).doNothing())
    .execute();
  const kept = await db
    .selectFrom('statement_files')
    .select(['id', 'stored_at'])
    .where('customer_id', '=', row.customer_id)
    .where('sha256', '=', row.sha256)
    .executeTakeFirstOrThrow();
  return { id: kept.id, stored: kept.stored_at !== null };
}

/** Marks a file stored: its pieces are all written. */
export async function markStatementFileStored(db: Executor, id: string, now: number): Promise<void> {
  await db.updateTable('statement_files').set({ stored_at: now }).where('id', '=', id).where('stored_at', 'is', null).execute();
}

/**
 * Stores one piece of a kept file's content; one already there stays (the same content's piece: an upload of the same
 * file that ended early, or runs at the same time, wrote it).
 */
export async function insertStatementFileChunk(db: Executor, row: StatementFileChunkTable): Promise<void> {
  await db
    .insertInto('statement_file_chunks')
    .values(row)
    .onConflict((oc) => oc.columns(['file_id', 'seq']).doNothing())
    .execute();
}

/** The places of the pieces a file has. */
export async function selectStatementFileChunkSeqs(db: Executor, fileId: string): Promise<Set<number>> {
  const rows = await db.selectFrom('statement_file_chunks').select('seq').where('file_id', '=', fileId).execute();
  return new Set(rows.map((r) => Number(r.seq)));
}

/** How many pieces a kept file's content is in. */
export async function countStatementFileChunks(db: Executor, fileId: string): Promise<number> {
  const row = await db
    .selectFrom('statement_file_chunks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('file_id', '=', fileId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One piece of a kept file's content, by its place. */
export async function selectStatementFileChunk(db: Executor, fileId: string, seq: number): Promise<Uint8Array | undefined> {
  const row = await db.selectFrom('statement_file_chunks').select('content').where('file_id', '=', fileId).where('seq', '=', seq).executeTakeFirst();
  return row?.content;
}

/** Notes periods; one an account has already keeps the file that gave it first. */
export async function insertStatementPeriods(db: Executor, rows: readonly StatementPeriodTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('statement_periods')
    .values([...rows])
    .onConflict((oc) => oc.columns(['account_id', 'period_start', 'period_end']).doNothing())
    .execute();
}

/** The periods uploaded files gave an account, latest end first. */
export async function selectStatementPeriods(db: Executor, accountId: number): Promise<StatementPeriodRow[]> {
  return db
    .selectFrom('statement_periods')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('period_end', 'desc')
    .orderBy('period_start', 'desc')
    .execute();
}

/** A stored file of the partner's customer (its content is in pieces: selectStatementFileChunk). */
export async function findStatementFile(db: Executor, owner: { partnerId: string; customerId: number }, id: string): Promise<StatementFileRow | undefined> {
  return db
    .selectFrom('statement_files')
    .selectAll()
    .where('id', '=', id)
    .where('stored_at', 'is not', null)
    .where('partner_id', '=', owner.partnerId)
    .where('customer_id', '=', owner.customerId)
    .executeTakeFirst();
}
