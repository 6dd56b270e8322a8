/** The queries of a partner's rules (rules) and of the source values of the transactions they changed. */
import type { Executor } from '../../platform/db/database.js';
import type { RuleRow, RuleTable, TransactionRuleSourceRow } from './table.js';

/** Rows per statement that lists ids or refs (keeps SQLite under its bound-parameter limit). */
export const ID_BATCH = 400;

/** The partner's rules in the order they apply. */
export function selectRules(db: Executor, partnerId: string): Promise<RuleRow[]> {
  return db.selectFrom('rules').selectAll().where('partner_id', '=', partnerId).orderBy('position').orderBy('id').execute();
}

/** One of the partner's rules. */
export function findRule(db: Executor, partnerId: string, id: number): Promise<RuleRow | undefined> {
  return db.selectFrom('rules').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();
}

/** How many rules the partner has. */
export async function countRules(db: Executor, partnerId: string): Promise<number> {
  const row = await db
    .selectFrom('rules')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('partner_id', '=', partnerId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

type RuleData = Pick<RuleTable, 'name' | 'position' | 'conditions' | 'actions'>;

export function insertRule(db: Executor, partnerId: string, data: RuleData, now: number): Promise<RuleRow> {
  return db
    .insertInto('rules')
    .values({ partner_id: partnerId, ...data, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Replaces one of the partner's rules; undefined when it has none of this id. */
export function updateRule(db: Executor, partnerId: string, id: number, data: RuleData, now: number): Promise<RuleRow | undefined> {
  return db
    .updateTable('rules')
    .set({ ...data, updated_at: now })
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes one of the partner's rules; whether it existed. */
export async function deleteRule(db: Executor, partnerId: string, id: number): Promise<boolean> {
  const result = await db.deleteFrom('rules').where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The stored transactions of an account with these refs: their ids. */
export async function transactionIdsByRef(db: Executor, accountId: number, refs: readonly string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (let i = 0; i < refs.length; i += ID_BATCH) {
    const rows = await db
      .selectFrom('transactions')
      .select(['id', 'ref'])
      .where('account_id', '=', accountId)
      .where('ref', 'in', refs.slice(i, i + ID_BATCH))
      .execute();
    for (const r of rows) ids.set(r.ref, Number(r.id));
  }
  return ids;
}

/** The kept source values of these transactions. */
export async function selectRuleSources(db: Executor, transactionIds: readonly number[]): Promise<Map<number, TransactionRuleSourceRow>> {
  const found = new Map<number, TransactionRuleSourceRow>();
  for (let i = 0; i < transactionIds.length; i += ID_BATCH) {
    const rows = await db
      .selectFrom('transaction_rule_sources')
      .selectAll()
      .where('transaction_id', 'in', transactionIds.slice(i, i + ID_BATCH))
      .execute();
    for (const r of rows) found.set(Number(r.transaction_id), r);
  }
  return found;
}

/** A transaction's source values as a rule found them. */
export interface RuleSourceValues {
  transactionId: number;
  category: string;
  payee: string;
  memo: string | null;
}

/** Keeps the source values of transactions a rule changed (replacing those kept before). */
export async function upsertRuleSources(db: Executor, partnerId: string, sources: readonly RuleSourceValues[], now: number): Promise<void> {
  for (let i = 0; i < sources.length; i += ID_BATCH / 4) {
    await db
      .insertInto('transaction_rule_sources')
      .values(
        sources.slice(i, i + ID_BATCH / 4).map((s) => ({
          transaction_id: s.transactionId,
          partner_id: partnerId,
          category: s.category,
          normalized_payee_name: s.payee,
          memo: s.memo,
          updated_at: now,
        })),
      )
      .onConflict((oc) =>
        oc.column('transaction_id').doUpdateSet((eb) => ({
          category: eb.ref('excluded.category'),
          normalized_payee_name: eb.ref('excluded.normalized_payee_name'),
          memo: eb.ref('excluded.memo'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

/** Forgets the source values of these transactions (no rule changes them any more). */
export async function deleteRuleSources(db: Executor, transactionIds: readonly number[]): Promise<void> {
  for (let i = 0; i < transactionIds.length; i += ID_BATCH) {
    await db
      .deleteFrom('transaction_rule_sources')
      .where('transaction_id', 'in', transactionIds.slice(i, i + ID_BATCH))
      .execute();
  }
}

/** Forgets the source values kept for the stored transactions of an account with these refs. */
export async function deleteRuleSourcesByRef(db: Executor, accountId: number, refs: readonly string[]): Promise<void> {
  for (let i = 0; i < refs.length; i += ID_BATCH) {
    await db
      .deleteFrom('transaction_rule_sources')
      .where('transaction_id', 'in', (eb) =>
        eb
          .selectFrom('transactions')
          .select('id')
          .where('account_id', '=', accountId)
          .where('ref', 'in', refs.slice(i, i + ID_BATCH)),
      )
      .execute();
  }
}

/** Whether source values are kept for any of the partner's transactions. */
export async function hasRuleSources(db: Executor, partnerId: string): Promise<boolean> {
  const row = await db.selectFrom('transaction_rule_sources').select('transaction_id').where('partner_id', '=', partnerId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Which stored transactions rules are applied to again: a partner's, or one of its customers'. */
export interface StoredScope {
  partnerId: string;
  customerId?: number;
}

/**
 * The next `limit` of the scope's stored transactions after id `afterId` (in id order), each with its institution;
 * `newestFirst` instead walks the most recent first (from before id `afterId`, when given).
 */
export function selectTransactionSlice(db: Executor, scope: StoredScope, afterId: number | undefined, limit: number, newestFirst = false) {
  let q = db
    .selectFrom('transactions')
    .innerJoin('accounts', 'accounts.id', 'transactions.account_id')
    .selectAll('transactions')
    .select('accounts.institution_id')
    .where('transactions.partner_id', '=', scope.partnerId);
  if (scope.customerId !== undefined) q = q.where('transactions.customer_id', '=', scope.customerId);
  if (afterId !== undefined) q = q.where('transactions.id', newestFirst ? '<' : '>', afterId);
  return q
    .orderBy('transactions.id', newestFirst ? 'desc' : 'asc')
    .limit(limit)
    .execute();
}

/** The next `limit` of the partner's customer ids after `afterId`, in order. */
export async function selectCustomerIds(db: Executor, partnerId: string, afterId: number, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('customers').select('id').where('partner_id', '=', partnerId).where('id', '>', afterId).orderBy('id').limit(limit).execute();
  return rows.map((r) => Number(r.id));
}
