/** The queries of kept statement files and the periods they gave (statement-files.service.ts). */
import type { Executor } from '../../platform/db/database.js';
import type { StatementFileRow, StatementFileTable, StatementPeriodRow, StatementPeriodTable } from './statement-files.table.js';

/** Keeps a file unless the customer has one of the same content; the id of the one kept. */
export async function insertStatementFile(db: Executor, row: StatementFileTable): Promise<string> {
  await db
    .insertInto('statement_files')
    .values(row)
    .onConflict((oc) => oc.columns(['customer_id', 'sha256']).doNothing())
    .execute();
  const kept = await db
    .selectFrom('statement_files')
    .select('id')
    .where('customer_id', '=', row.customer_id)
    .where('sha256', '=', row.sha256)
    .executeTakeFirstOrThrow();
  return kept.id;
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

/** A kept file of the partner's customer, content included. */
export async function findStatementFile(db: Executor, owner: { partnerId: string; customerId: number }, id: string): Promise<StatementFileRow | undefined> {
  return db
    .selectFrom('statement_files')
    .selectAll()
    .where('id', '=', id)
    .where('partner_id', '=', owner.partnerId)
    .where('customer_id', '=', owner.customerId)
    .executeTakeFirst();
}
