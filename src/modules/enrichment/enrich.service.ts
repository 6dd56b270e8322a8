import type { Static } from 'typebox';
import { categorize } from '../../connectors/categorize.js';
import { TRANSACTION_TYPES, type TransactionType } from '../../connectors/connector.js';
import type { EnrichedTransactions, EnrichTransactionPayload } from '../../contract/schemas/enrichment.js';

type Payload = Static<typeof EnrichTransactionPayload>;
type Enriched = Static<typeof EnrichedTransactions>['transactions'][number];

const TYPES: ReadonlyMap<string, TransactionType> = new Map(TRANSACTION_TYPES.map((t) => [t.toLowerCase(), t]));

/**
 * The transaction type categorisation reads: the one named (any case; `POS` is a point of sale), else what the
 * amount's sign says, as a bank states a debit or a credit.
 */
function typeOf(t: Payload): TransactionType {
  const named = t.type?.trim().toLowerCase();
  if (named === 'pos') return 'pointOfSale';
  return (named !== undefined ? TYPES.get(named) : undefined) ?? (t.amount < 0 ? 'debit' : 'credit');
}

/**
 * Enrich Transactions: each transaction given, passed back with the category and payee that Ledgerlink's own
 * stored transactions get from the same description and memo (connectors/categorize.ts). Nothing is stored or
 * looked up: the external ids are the partner's own and name nothing here, so no partner rule or customer applies.
 */
export function enrichTransactions(transactions: readonly Payload[]): Enriched[] {
  return transactions.map((t) => {
    const { normalizedPayeeName, category } = categorize(t.description, t.memo, typeOf(t));
    return { ...t, transactionCategory: category, entities: normalizedPayeeName === '' ? [] : [{ name: normalizedPayeeName, category }] };
  });
}
