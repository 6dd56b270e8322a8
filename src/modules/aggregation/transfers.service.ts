/**
 * Transfers between a customer's own accounts (docs/aggregation.md, "Transfers"): money that leaves one account and
 * arrives in another of the same customer is one movement, not spending and income, so budgets must not count it
 * twice. Two posted transactions of exactly opposite amounts, in two different accounts of the customer (checking,
 * savings or credit card, from any source, in one currency), dated at most TRANSFER_WINDOW_DAYS apart, are marked as a
 * pair: each names the other (`transfer_transaction_id`) and takes the transfer category. A card's payment from a
 * checking account is such a pair too (a transfer in budgeting tools: the spending was the card's purchases).
 */
import type { Executor } from '../../platform/db/database.js';
import { transactionEvent, type AggregationEvent } from './records.js';
import type { TransactionRow } from './table.js';
import { markTransferSide, selectAccountsOfTypes, selectUnpairedWithAmounts } from './transfers.repository.js';

const DAY = 86_400;
/** The two sides of a transfer are dated at most this many days apart (a transfer between banks takes business days). */
export const TRANSFER_WINDOW_DAYS = 5;
/** The accounts whose transactions pair: money kept or owed as cash. Loans, mortgages and investments are left out. */
export const TRANSFER_ACCOUNT_TYPES = ['checking', 'savings', 'creditCard'] as const;
/** The category both sides take, as the real service names it; a card's payment takes CARD_PAYMENT_CATEGORY. */
export const TRANSFER_CATEGORY = 'Transfer';
export const CARD_PAYMENT_CATEGORY = 'Credit Card Payment';
/** Categories of the transfer family: a side of a pair without a card that has one already keeps it. */
const TRANSFER_CATEGORIES = new Set([TRANSFER_CATEGORY, CARD_PAYMENT_CATEGORY, 'Transfer for Cash Spending']);

/** A transaction that may take part in a pair: posted, not paired, not zero. */
interface Side {
  id: number;
  accountId: number;
  amount: number;
  date: number;
}

const sideOfRow = (r: TransactionRow): Side => ({
  id: Number(r.id),
  accountId: Number(r.account_id),
  amount: Number(r.amount),
  date: Number(r.effective_date),
});

/**
 * Pairs the transactions that `events` (one store's, in its transaction) created or modified with transfers' other
 * sides among the customer's transactions, and answers the events to record: those of the marked transactions carry
 * their new record, and a `modified` event is added for each other side stored before. Ambiguity is settled by the
 * closest dates, then the oldest transactions (lowest ids); each transaction is in one pair at most.
 */
export async function pairTransfers(db: Executor, events: readonly AggregationEvent[], now: number): Promise<AggregationEvent[]> {
  const fresh = events.filter(
    (e): e is AggregationEvent & { class: 'transaction' } =>
      e.class === 'transaction' &&
      e.type !== 'deleted' &&
      e.record.status === 'active' &&
      e.record.transferTransactionId === undefined &&
      e.record.amount !== 0,
  );
  if (fresh.length === 0) return [...events];
  const updated = new Map<number, TransactionRow>();
  for (const customerId of new Set(fresh.map((e) => e.customerId))) {
    for (const row of await pairCustomerTransfers(
      db,
      customerId,
      fresh.filter((e) => e.customerId === customerId),
      now,
    )) {
      updated.set(Number(row.id), row);
    }
  }
  if (updated.size === 0) return [...events];
  const out = events.map((e) => {
    if (e.class !== 'transaction' || e.type === 'deleted') return e;
    const row = updated.get(e.record.id);
    if (!row) return e;
    updated.delete(e.record.id);
    return transactionEvent(e.type, row);
  });
  for (const row of updated.values()) out.push(transactionEvent('modified', row));
  return out;
}

/** Pairs one customer's new transactions; the rows marked. */
async function pairCustomerTransfers(
  db: Executor,
  customerId: number,
  fresh: (AggregationEvent & { class: 'transaction' })[],
  now: number,
): Promise<TransactionRow[]> {
  const accounts = await selectAccountsOfTypes(db, customerId, TRANSFER_ACCOUNT_TYPES);
  if (accounts.length < 2) return [];
  const accountOf = new Map(accounts.map((a) => [Number(a.id), a]));
  const news = fresh
    .filter((e) => accountOf.has(e.accountId))
    .map((e): Side => ({ id: e.record.id, accountId: e.accountId, amount: e.record.amount, date: e.record.transactionDate ?? e.record.postedDate }));
  if (news.length === 0) return [];

  const dates = news.map((s) => s.date);
  const rows = (
    await selectUnpairedWithAmounts(db, customerId, Math.min(...dates) - TRANSFER_WINDOW_DAYS * DAY, Math.max(...dates) + TRANSFER_WINDOW_DAYS * DAY, [
      ...new Set(news.map((s) => -s.amount)),
    ])
  ).filter((r) => accountOf.has(Number(r.account_id)));
  const byAmount = new Map<number, Side[]>();
  for (const side of rows.map(sideOfRow)) byAmount.set(side.amount, [...(byAmount.get(side.amount) ?? []), side]);

  const pairs: { a: Side; b: Side; days: number }[] = [];
  const seen = new Set<string>();
  for (const a of news) {
    for (const b of byAmount.get(-a.amount) ?? []) {
      if (b.accountId === a.accountId || accountOf.get(b.accountId)!.currency !== accountOf.get(a.accountId)!.currency) continue;
      const days = Math.abs(a.date - b.date) / DAY;
      if (days > TRANSFER_WINDOW_DAYS) continue;
      const [first, second] = a.id < b.id ? [a, b] : [b, a];
      const key = `${first.id}:${second.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      pairs.push({ a: first, b: second, days });
    }
  }
  pairs.sort((x, y) => x.days - y.days || x.a.id - y.a.id || x.b.id - y.b.id);

  const paired = new Set<number>();
  const marked: TransactionRow[] = [];
  const categories = new Map<number, string | null | undefined>(rows.map((r) => [Number(r.id), r.category]));
  for (const e of fresh) categories.set(e.record.id, e.record.categorization?.category);
  for (const { a, b } of pairs) {
    if (paired.has(a.id) || paired.has(b.id)) continue;
    paired.add(a.id);
    paired.add(b.id);
    const card = accountOf.get(a.accountId)!.type === 'creditCard' || accountOf.get(b.accountId)!.type === 'creditCard';
    const category = (own: string | null | undefined) => (card ? CARD_PAYMENT_CATEGORY : own && TRANSFER_CATEGORIES.has(own) ? own : TRANSFER_CATEGORY);
    marked.push(await markTransferSide(db, a.id, b.id, category(categories.get(a.id)), now));
    marked.push(await markTransferSide(db, b.id, a.id, category(categories.get(b.id)), now));
  }
  return marked;
}
