/** The queries of stored pay statements (pay-statements.service.ts). */
import type { Executor } from '../../platform/db/database.js';
import type { PayStatementChunkTable, PayStatementRow, PayStatementTable } from './table.js';

export async function insertPayStatement(db: Executor, row: PayStatementTable): Promise<void> {
  await db.insertInto('pay_statements').values(row).execute();
}

/** One of the customer's pay statements, of the partner. */
export async function findPayStatement(db: Executor, of: { partnerId: string; customerId: number }, id: string): Promise<PayStatementRow | undefined> {
  return db
    .selectFrom('pay_statements')
    .selectAll()
    .where('id', '=', id)
    .where('partner_id', '=', of.partnerId)
    .where('customer_id', '=', of.customerId)
    .executeTakeFirst();
}

/** Stores one piece of a pay statement's sealed document. */
export async function insertPayStatementChunk(db: Executor, row: PayStatementChunkTable): Promise<void> {
  await db.insertInto('pay_statement_chunks').values(row).execute();
}

/** How many pieces a pay statement's sealed document is in. */
export async function countPayStatementChunks(db: Executor, id: string): Promise<number> {
  const row = await db
    .selectFrom('pay_statement_chunks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('pay_statement_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One piece of a pay statement's sealed document, by its place. */
export async function selectPayStatementChunk(db: Executor, id: string, seq: number): Promise<Uint8Array | undefined> {
  const row = await db.selectFrom('pay_statement_chunks').select('content').where('pay_statement_id', '=', id).where('seq', '=', seq).executeTakeFirst();
  return row?.content;
}
