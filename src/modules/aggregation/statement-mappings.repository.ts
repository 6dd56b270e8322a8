/** The queries of a partner's saved CSV column mappings (statement_mappings). */
import type { Executor } from '../../platform/db/database.js';
import type { StatementMappingRow } from './table.js';

/** The partner's saved mappings, the most recently used first. */
export function selectStatementMappings(db: Executor, partnerId: string): Promise<StatementMappingRow[]> {
  return db
    .selectFrom('statement_mappings')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .orderBy('last_used_at', 'desc')
    .orderBy('updated_at', 'desc')
    .orderBy('fingerprint')
    .execute();
}

/** Saves the mapping for a layout, replacing the one saved before (which keeps its created_at). */
export async function upsertStatementMapping(db: Executor, partnerId: string, fingerprint: string, mapping: string, now: number): Promise<void> {
  await db
    .insertInto('statement_mappings')
    .values({ partner_id: partnerId, fingerprint, mapping, created_at: now, updated_at: now, last_used_at: now })
    .onConflict((oc) => oc.columns(['partner_id', 'fingerprint']).doUpdateSet({ mapping, updated_at: now, last_used_at: now }))
    .execute();
}

/** Marks a saved mapping used now. */
export async function touchStatementMapping(db: Executor, partnerId: string, fingerprint: string, now: number): Promise<void> {
  await db.updateTable('statement_mappings').set({ last_used_at: now }).where('partner_id', '=', partnerId).where('fingerprint', '=', fingerprint).execute();
}

/** How many mappings the partner has saved. */
export async function countStatementMappings(db: Executor, partnerId: string): Promise<number> {
  const row = await db
    .selectFrom('statement_mappings')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('partner_id', '=', partnerId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The `count` least recently used of the partner's mappings' fingerprints (the oldest saved first among equals). */
export async function leastRecentlyUsedMappings(db: Executor, partnerId: string, count: number): Promise<string[]> {
  const rows = await db
    .selectFrom('statement_mappings')
    .select('fingerprint')
    .where('partner_id', '=', partnerId)
    .orderBy('last_used_at')
    .orderBy('updated_at')
    .orderBy('fingerprint')
    .limit(count)
    .execute();
  return rows.map((r) => r.fingerprint);
}

/** Deletes the partner's mappings of these layouts; how many there were. */
export async function deleteStatementMappings(db: Executor, partnerId: string, fingerprints: readonly string[]): Promise<number> {
  if (fingerprints.length === 0) return 0;
  const result = await db.deleteFrom('statement_mappings').where('partner_id', '=', partnerId).where('fingerprint', 'in', fingerprints).executeTakeFirst();
  return Number(result.numDeletedRows);
}
