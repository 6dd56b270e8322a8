/**
 * Pending transactions: matched to the posted transaction that replaces them, and expired when they never post
 * (docs/aggregation.md, "Pending to posted").
 *
 * A source that keeps a transaction's ref when it posts (the test bank) needs nothing of this: the stored row is
 * modified in place. Others list the posted transaction under a new ref (SimpleFIN's bridge, some OFX servers), or a
 * statement file brings the posted one while a live source showed it pending: the posted row then names the pending
 * one it replaced (`pending_transaction_id`), and the pending row is deleted, so a client sees `deleted` for the
 * pending transaction and `created` for the posted one carrying `pendingTransactionId`.
 */
import type { ConnectorTransaction } from '../../connectors/connector.js';
import type { Executor } from '../../platform/db/database.js';
import { serviceNow, type Engine } from './engine.js';
import { recordEvents } from './events.service.js';
import { deletePending, markReplacement, selectExpiredPending, selectPendingOfAccount, selectReplacedPendingRefs } from './pending.repository.js';
import { transactionEvent, type AggregationEvent, type TransactionEventRecord } from './records.js';
import type { AccountRow, TransactionRow } from './table.js';

const DAY = 86_400;
/** A pending transaction dated more than this many days ago (its customer's clock) is deleted: it never posted. */
export const PENDING_EXPIRY_DAYS = 14;
/** A posted transaction replaces a pending one dated from this many days after it... */
export const PENDING_MATCH_DAYS_BEFORE = 1;
/** ...to this many days before it (holds and card purchases post within a few business days). */
export const PENDING_MATCH_DAYS_AFTER = 7;
/** The posted amount may differ from the pending one by this share of it (tips, holds, currency conversion)... */
export const PENDING_AMOUNT_TOLERANCE = 0.3;
/** ...or by this much, whichever is more (small amounts). */
export const PENDING_AMOUNT_SLACK = 1;

/** Words that name a channel or processor rather than a merchant: sharing one says nothing. */
const NOISE_WORDS = new Set([
  'ach',
  'and',
  'card',
  'checkcard',
  'credit',
  'debit',
  'online',
  'payment',
  'paypal',
  'pending',
  'pos',
  'purchase',
  'recurring',
  'the',
  'transaction',
  'tst',
  'visa',
  'mastercard',
]);

/** A description's merchant words: letters only (accents folded), at least three, channel words dropped. */
export function descriptionWords(text: string): Set<string> {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}]+/u);
  return new Set(words.filter((w) => w.length >= 3 && !NOISE_WORDS.has(w)));
}

/** Whether two descriptions name the same merchant: the same payee, or a merchant word in common. */
export function similarDescriptions(a: { description: string; payee?: string | null }, b: { description: string; payee?: string | null }): boolean {
  const payeeA = a.payee?.trim().toLowerCase();
  if (payeeA && payeeA === b.payee?.trim().toLowerCase()) return true;
  const words = descriptionWords(a.description);
  for (const w of descriptionWords(b.description)) if (words.has(w)) return true;
  return false;
}

const effectiveDate = (t: { transactionDate?: number; postedDate?: number }) => t.transactionDate ?? t.postedDate ?? 0;

/** How far apart a posted transaction is from a pending one it could replace (days, amount), or undefined when it cannot. */
function replacementDistance(pending: TransactionRow, posted: TransactionEventRecord): { days: number; amount: number } | undefined {
  const before = Number(pending.amount);
  if (before === 0 || Math.sign(before) !== Math.sign(posted.amount)) return undefined;
  const amount = Math.abs(posted.amount - before);
  if (amount > Math.max(PENDING_AMOUNT_SLACK, Math.abs(before) * PENDING_AMOUNT_TOLERANCE) + 1e-9) return undefined;
  const seconds = effectiveDate(posted) - Number(pending.effective_date);
  if (seconds < -PENDING_MATCH_DAYS_BEFORE * DAY || seconds > PENDING_MATCH_DAYS_AFTER * DAY) return undefined;
  const similar = similarDescriptions(
    { description: pending.description, payee: pending.normalized_payee_name },
    { description: posted.description, payee: posted.categorization?.normalizedPayeeName },
  );
  return similar ? { days: Math.abs(seconds) / DAY, amount } : undefined;
}

/**
 * What a source reported for an account, less what is not kept: pending transactions dated more than
 * PENDING_EXPIRY_DAYS before `now`, and pending ones a posted transaction already replaced (a source that still
 * lists them does not bring them back).
 */
export async function keptTransactions(
  db: Executor,
  account: AccountRow,
  fetched: readonly ConnectorTransaction[],
  now: number,
): Promise<readonly ConnectorTransaction[]> {
  const oldest = now - PENDING_EXPIRY_DAYS * DAY;
  const pending = fetched.filter((t) => t.status === 'pending');
  if (pending.length === 0) return fetched;
  const replaced = await selectReplacedPendingRefs(
    db,
    account.id,
    pending.map((t) => t.ref),
  );
  return fetched.filter((t) => t.status !== 'pending' || (effectiveDate(t) >= oldest && !replaced.has(t.ref)));
}

/**
 * After a sync stored the posted transactions a source listed (`result.events` holds their `created` events), settles
 * the account's pending transactions the source did not list (`listed`: the refs it did): each new posted transaction
 * replaces at most one of them and each is replaced at most once (closest date first, then closest amount, then the
 * oldest pending, then the oldest posted); the posted row names it and its event follows. Those replaced, and any
 * dated more than PENDING_EXPIRY_DAYS before `now`, are deleted with a `deleted` event. Returns the ids deleted (the
 * sync must not delete them again). Runs in the sync's transaction.
 */
export async function settlePending(
  db: Executor,
  account: AccountRow,
  result: { deleted: number; events: AggregationEvent[] },
  listed: ReadonlySet<string>,
  now: number,
): Promise<Set<number>> {
  const gone = new Set<number>();
  const pending = (await selectPendingOfAccount(db, account.id)).filter((r) => !listed.has(r.ref));
  if (pending.length === 0) return gone;

  const oldest = now - PENDING_EXPIRY_DAYS * DAY;
  const posted = result.events.filter((e) => e.class === 'transaction' && e.type === 'created' && e.record.status === 'active');
  const candidates: { event: AggregationEvent & { class: 'transaction' }; pending: TransactionRow; days: number; amount: number }[] = [];
  for (const event of posted) {
    if (event.class !== 'transaction') continue;
    for (const p of pending) {
      const distance = replacementDistance(p, event.record);
      if (distance) candidates.push({ event, pending: p, ...distance });
    }
  }
  candidates.sort((a, b) => a.days - b.days || a.amount - b.amount || Number(a.pending.id) - Number(b.pending.id) || a.event.record.id - b.event.record.id);
  const replacedBy = new Set<number>();
  for (const c of candidates) {
    if (gone.has(Number(c.pending.id)) || replacedBy.has(c.event.record.id)) continue;
    gone.add(Number(c.pending.id));
    replacedBy.add(c.event.record.id);
    const row = await markReplacement(db, c.event.record.id, c.pending);
    result.events[result.events.indexOf(c.event)] = transactionEvent('created', row);
  }
  for (const p of pending) if (Number(p.effective_date) < oldest) gone.add(Number(p.id));

  const deleted = await deletePending(db, [...gone]);
  result.deleted += deleted.length;
  for (const row of deleted) result.events.push(transactionEvent('deleted', { ...row, updated_at: now }));
  return gone;
}

/** Pending transactions the scheduler expires per pass at most. */
export const EXPIRY_BATCH = 500;

/**
 * Deletes pending transactions dated more than PENDING_EXPIRY_DAYS before their customer's now, whichever login they
 * belong to (a statement file's, a login that fails, one nobody refreshes), with a `deleted` event each; the scheduled
 * refresh's worker calls it on every look. Logins a refresh holds are left to that refresh. Returns how many went.
 */
export async function expirePendingTransactions(engine: Engine, limit = EXPIRY_BATCH): Promise<number> {
  const db = engine.database.kysely;
  const expired = await selectExpiredPending(db, serviceNow(engine), PENDING_EXPIRY_DAYS * DAY, limit);
  if (expired.length === 0) return 0;
  return db.transaction().execute(async (tx) => {
    const deleted = await deletePending(
      tx,
      expired.map((r) => Number(r.id)),
    );
    await recordEvents(
      engine,
      tx,
      deleted.map((row) => transactionEvent('deleted', row)),
    );
    return deleted.length;
  });
}
