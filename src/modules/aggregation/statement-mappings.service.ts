/**
 * A partner's saved CSV column mappings (docs/connectors.md, "Saved column mappings"): an upload whose file was read
 * with the mapping it gave saves that mapping for the file's layout (its fingerprint), replacing the one saved before;
 * a later upload without a mapping hands the partner's saved ones to the reader, which reads a file of a saved layout
 * with its mapping before any built-in layout. Partner-wide (any customer, the API and Connect alike), at most
 * MAX_STATEMENT_MAPPINGS per partner: saving one more forgets the least recently used.
 */
import type { Static } from 'typebox';
import type { CsvLayoutUsed, SavedMapping } from '../../connectors/statements/fingerprint.js';
import type { ColumnMapping } from '../../connectors/statements/mapping.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { StatementMappingRecord, StatementMappingUsed } from '../../contract/schemas/statements.js';
import type { Executor } from '../../platform/db/database.js';
import {
  countStatementMappings,
  deleteStatementMappings,
  leastRecentlyUsedMappings,
  selectStatementMappings,
  touchStatementMapping,
  upsertStatementMapping,
} from './statement-mappings.repository.js';

/** Most mappings a partner keeps: a partner's users meet a few dozen banks' layouts, not hundreds. */
export const MAX_STATEMENT_MAPPINGS = 100;

/** A saved mapping as the reader takes it, with when it was saved. */
export interface SavedStatementMapping extends SavedMapping {
  savedAt: number;
}

/** The partner's saved mappings, for the reader (the most recently used first). */
export async function savedStatementMappings(db: Executor, partnerId: string): Promise<SavedStatementMapping[]> {
  const rows = await selectStatementMappings(db, partnerId);
  return rows.map((r) => ({ fingerprint: r.fingerprint, mapping: JSON.parse(r.mapping) as ColumnMapping, savedAt: Number(r.updated_at) }));
}

/**
 * After a file was stored: saves the mapping it was read with when the upload gave it (forgetting the least recently
 * used past the cap), or marks the saved one it was read with as used. Answers the upload's `mapping` field.
 */
export async function rememberStatementMapping(
  db: Executor,
  partnerId: string,
  layout: CsvLayoutUsed | undefined,
  saved: readonly SavedStatementMapping[],
  now: number,
): Promise<Static<typeof StatementMappingUsed> | undefined> {
  if (!layout) return undefined;
  const { source, fingerprint } = layout;
  switch (source) {
    case 'given':
      await upsertStatementMapping(db, partnerId, fingerprint, JSON.stringify(layout.mapping), now);
      await evictBeyondCap(db, partnerId, fingerprint);
      return { source, fingerprint, savedDate: now };
    case 'saved': {
      await touchStatementMapping(db, partnerId, fingerprint, now);
      const savedAt = saved.find((s) => s.fingerprint === fingerprint)?.savedAt;
      return { source, fingerprint, ...(savedAt !== undefined ? { savedDate: savedAt } : {}) };
    }
    default:
      return { source, layout: layout.name, fingerprint };
  }
}

/** Forgets the partner's least recently used mappings past the cap, never the one just saved. */
async function evictBeyondCap(db: Executor, partnerId: string, keep: string): Promise<void> {
  const over = (await countStatementMappings(db, partnerId)) - MAX_STATEMENT_MAPPINGS;
  if (over <= 0) return;
  const oldest = await leastRecentlyUsedMappings(db, partnerId, over + 1);
  await deleteStatementMappings(db, partnerId, oldest.filter((f) => f !== keep).slice(0, over));
}

/** The partner's saved mappings as the API lists them, the most recently used first. */
export async function listStatementMappings(db: Executor, partnerId: string): Promise<Static<typeof StatementMappingRecord>[]> {
  const rows = await selectStatementMappings(db, partnerId);
  return rows.map((r) => ({
    fingerprint: r.fingerprint,
    mapping: r.mapping,
    createdDate: Number(r.created_at),
    updatedDate: Number(r.updated_at),
    lastUsedDate: Number(r.last_used_at),
  }));
}

/** Forgets the partner's saved mapping of a layout; 404 when it has none. */
export async function forgetStatementMapping(db: Executor, partnerId: string, fingerprint: string): Promise<void> {
  if ((await deleteStatementMappings(db, partnerId, [fingerprint])) === 0) {
    throw new ServiceError('ResourceNotFound', `No column mapping is saved for the layout ${fingerprint}.`);
  }
}
