/**
 * Transactions deduplicated across sources: an account fed by a live connection and by statement files (or by two
 * connections) gets each transaction once. Before a source's transactions are stored, those the account does not
 * hold under their own ref are compared with what the account's other sources stored (dedup.rules.ts); a duplicate
 * is not stored, raises no event, and its ref is kept as an alias of the stored transaction, so it is recognised at
 * once when the source sends it again and the stored one is never matched twice by the same source.
 */
import type { ConnectorTransaction } from '../../connectors/connector.js';
import type { Executor } from '../../platform/db/database.js';
import { aliasedRefs, insertAliases, storedRefs, transactionsAliasedBy, transactionsBetween } from './dedup.repository.js';
import { type Comparable, cents, DUPLICATE_WINDOW_SECONDS, pairDuplicates } from './dedup.rules.js';
import type { AccountRow, TransactionRow } from './table.js';

/** The source of statement files, as stored transactions name it (a file's account adds its own part: statementFeed). */
export const STATEMENT_SOURCE = 'statement';

/**
 * Whether a stored transaction came from another source than `source`. A row stored before sources were kept (null)
 * is a connector's: the same source as any connection's, another one for a statement file.
 */
export function fromAnotherSource(row: Pick<TransactionRow, 'source'>, source: string): boolean {
  if (row.source === null) return source.startsWith(STATEMENT_SOURCE);
  return row.source !== source;
}

const incomingOf = (t: ConnectorTransaction): Comparable => ({
  date: t.transactionDate,
  amount: t.amount,
  description: t.description,
  payee: t.categorization.normalizedPayeeName,
  institutionId: t.institutionTransactionId ?? null,
});

const storedOf = (r: TransactionRow): Comparable => ({
  date: Number(r.effective_date),
  amount: r.amount,
  description: r.description,
  payee: r.normalized_payee_name,
  institutionId: r.institution_transaction_id,
});

/** The most amounts and ids a query lists; more are compared without narrowing the read. */
const MAX_LISTED = 500;

export interface DedupResult {
  /** What is left to store: the source's own transactions and the new ones. */
  kept: ConnectorTransaction[];
  /** Transactions another source of the account already stored (found now, or recognised by an alias). */
  duplicates: number;
}

/** Drops from `fetched` what another source of the account already stored; records the aliases, in the caller's transaction. */
export async function dropCrossSourceDuplicates(
  tx: Executor,
  account: AccountRow,
  fetched: readonly ConnectorTransaction[],
  source: string,
  now: number,
): Promise<DedupResult> {
  if (fetched.length === 0) return { kept: [...fetched], duplicates: 0 };
  const refs = [...new Set(fetched.map((t) => t.ref))];
  const own = await storedRefs(tx, account.id, refs);
  const unknown = refs.filter((r) => !own.has(r));
  if (unknown.length === 0) return { kept: [...fetched], duplicates: 0 };

  const known = await aliasedRefs(tx, account.id, unknown);
  const firstOf = new Map<string, ConnectorTransaction>();
  for (const t of fetched) if (!own.has(t.ref) && !known.has(t.ref) && !firstOf.has(t.ref)) firstOf.set(t.ref, t);
  const candidates = [...firstOf.values()];

  const duplicateRefs = new Set(known);
  if (candidates.length > 0) {
    let from = Number.POSITIVE_INFINITY;
    let to = 0;
    for (const t of candidates) {
      from = Math.min(from, t.transactionDate);
      to = Math.max(to, t.transactionDate);
    }
    // Only rows that could pair are read: another source's, with an amount or institution id of the candidates (a
    // short list, as a slice or a refresh gives; a long one is left to the comparison).
    // With the neighbouring cents: SQL rounds a half cent (a three-decimal currency's -12.345) away from zero on SQLite
    // and to even on PostgreSQL, Math.round towards +∞; the rules compare the rows read.
    const amounts = [...new Set(candidates.flatMap((t) => [cents(t.amount) - 1, cents(t.amount), cents(t.amount) + 1]))];
    const institutionIds = [...new Set(candidates.flatMap((t) => (t.institutionTransactionId ? [t.institutionTransactionId] : [])))];
    const like = amounts.length + institutionIds.length <= MAX_LISTED ? { cents: amounts, institutionIds } : undefined;
    const others = (
      await transactionsBetween(
        tx,
        account.id,
        from - DUPLICATE_WINDOW_SECONDS,
        to + DUPLICATE_WINDOW_SECONDS,
        { source, nullIsOther: source.startsWith(STATEMENT_SOURCE) },
        like,
      )
    ).filter((r) => fromAnotherSource(r, source));
    const matched = await transactionsAliasedBy(
      tx,
      others.map((r) => r.id),
      source,
    );
    const open = others.filter((r) => !matched.has(Number(r.id)));
    if (open.length > 0) {
      const pairs = pairDuplicates(candidates.map(incomingOf), open.map(storedOf));
      const aliases = [...pairs].map(([i, j]) => ({
        account_id: account.id,
        ref: candidates[i]!.ref,
        source,
        transaction_id: Number(open[j]!.id),
        created_at: now,
      }));
      await insertAliases(tx, aliases);
      for (const a of aliases) duplicateRefs.add(a.ref);
    }
  }
  if (duplicateRefs.size === 0) return { kept: [...fetched], duplicates: 0 };
  return { kept: fetched.filter((t) => !duplicateRefs.has(t.ref)), duplicates: duplicateRefs.size };
}
