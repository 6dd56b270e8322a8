import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { AccountRow, TransactionAliasTable, TransactionRow } from './table.js';

/** Which of these refs the account stores as its own transactions. */
export async function storedRefs(db: Executor, accountId: number, refs: readonly string[]): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const rows = await db.selectFrom('transactions').select('ref').where('account_id', '=', accountId).where('ref', 'in', refs).execute();
  return new Set(rows.map((r) => r.ref));
}

/** Which of these refs are known as another source's name of a stored transaction of the account. */
export async function aliasedRefs(db: Executor, accountId: number, refs: readonly string[]): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const rows = await db.selectFrom('transaction_aliases').select('ref').where('account_id', '=', accountId).where('ref', 'in', refs).execute();
  return new Set(rows.map((r) => r.ref));
}

/**
 * The account's transactions dated (effective_date) in [from, to] that came from another source than `source` (a
 * row without a source counting as another one when `nullIsOther`), and, when `like` is given, only those with one of
 * its amounts (in cents) or institution ids: a file stored a slice at a time would otherwise read the account's whole
 * window back for every slice.
 */
export async function transactionsBetween(
  db: Executor,
  accountId: number,
  from: number,
  to: number,
  other: { source: string; nullIsOther: boolean },
  like?: { cents: readonly number[]; institutionIds: readonly string[] },
): Promise<TransactionRow[]> {
  let query = db
    .selectFrom('transactions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('effective_date', '>=', from)
    .where('effective_date', '<=', to)
    .where((eb) => (other.nullIsOther ? eb.or([eb('source', 'is', null), eb('source', '<>', other.source)]) : eb('source', '<>', other.source)));
  if (like) {
    query = query.where((eb) =>
      eb.or([
        ...(like.cents.length > 0 ? [eb(sql<number>`round(amount * 100)`, 'in', [...like.cents])] : []),
        ...(like.institutionIds.length > 0 ? [eb('institution_transaction_id', 'in', [...like.institutionIds])] : []),
        ...(like.cents.length === 0 && like.institutionIds.length === 0 ? [sql<boolean>`1 = 0`] : []),
      ]),
    );
  }
  return query.execute();
}

/** Which of these transactions a source's transaction was already recognised as. */
export async function transactionsAliasedBy(db: Executor, ids: readonly number[], source: string): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('transaction_aliases').select('transaction_id').where('transaction_id', 'in', ids).where('source', '=', source).execute();
  return new Set(rows.map((r) => Number(r.transaction_id)));
}

export async function insertAliases(db: Executor, rows: TransactionAliasTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('transaction_aliases')
    .values(rows)
    .onConflict((oc) => oc.columns(['account_id', 'ref']).doNothing())
    .execute();
}

/** The transactions of these accounts that carry one of these institution ids (an account match's evidence). */
export async function countInstitutionIds(db: Executor, accountIds: readonly number[], ids: readonly string[]): Promise<Map<number, number>> {
  if (accountIds.length === 0 || ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('transactions')
    .select(['account_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('account_id', 'in', accountIds)
    .where('institution_transaction_id', 'in', ids)
    .groupBy('account_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.account_id), Number(r.n)]));
}

/**
 * Moves a file's account to a live login taking it over, under the live source's ref; not aggregated by that source
 * yet, so its first refresh loads the initial window.
 */
export async function moveAccount(db: Executor, accountId: number, login: { id: number; institution_id: number }, ref: string): Promise<AccountRow> {
  return db
    .updateTable('accounts')
    .set({ institution_login_id: login.id, institution_id: login.institution_id, ref, first_aggregated_at: null })
    .where('id', '=', accountId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
