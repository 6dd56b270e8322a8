/**
 * Recurring transactions (docs/aggregation.md, "Recurring transactions"): series of transactions to or from the same
 * payee, of about the same amount, at a steady cadence. Pure: stored transactions in, streams out, so the detector can
 * be tested alone and reused by anything that reads transactions.
 *
 * 1. Payee key: the payee name (the stored normalised payee, else the description) in lower case without digits,
 *    punctuation and the words card and ACH processors put around it, its first three words.
 * 2. Groups: one per account, direction (debits, credits) and payee key.
 * 3. Amounts: a group splits where its sorted amounts jump (interest and transfers from the same bank); each part
 *    keeps the transactions within AMOUNT_TOLERANCE of its median amount (a one-off purchase at the same shop drops out).
 * 4. Cadence: the median gap between consecutive dates must be one of the known cadences (weekly to annually), and
 *    at least REGULAR_SHARE of the gaps within a tolerance of it.
 * A stream has at least MIN_OCCURRENCES transactions; it is active while the next one is not overdue by more than
 * half a cadence.
 */

const DAY = 86_400;
export const MIN_OCCURRENCES = 3;
/** Share of the median amount (at least MIN_AMOUNT_SLACK dollars) an amount may differ by and stay in the stream. */
export const AMOUNT_TOLERANCE = 0.25;
export const MIN_AMOUNT_SLACK = 2;
/** Share of the gaps that must be near the median gap. */
export const REGULAR_SHARE = 0.75;

/** The cadences recognised, as ranges of the median gap in days. */
export const CADENCES: readonly { name: string; minDays: number; maxDays: number }[] = [
  { name: 'weekly', minDays: 6, maxDays: 8 },
  { name: 'biweekly', minDays: 13, maxDays: 16 },
  { name: 'monthly', minDays: 27, maxDays: 33 },
  { name: 'bimonthly', minDays: 58, maxDays: 64 },
  { name: 'quarterly', minDays: 85, maxDays: 96 },
  { name: 'semiannually', minDays: 175, maxDays: 190 },
  { name: 'annually', minDays: 355, maxDays: 375 },
];

export interface RecurringInput {
  id: number;
  accountId: number;
  amount: number;
  /** Epoch seconds: the posted date, else the transaction date. */
  date: number;
  description: string;
  normalizedPayeeName: string | null;
  category: string | null;
}

export interface RecurringStream {
  direction: 'outflow' | 'inflow';
  accountId: number;
  normalizedPayeeName: string;
  transactionCategories: string[];
  transactionIds: number[];
  /** Mean gap in whole days. */
  cadence: number;
  status: 'active' | 'inactive';
  /** Epoch seconds (midnight UTC of the expected day). */
  expectedNextTransactionDate: number;
  expectedNextTransactionAmount: number;
  minimumHistoricalAmount: number;
  maximumHistoricalAmount: number;
  meanHistoricalAmount: number;
  medianHistoricalAmount: number;
  countOfTransactions: number;
}

const NOISE_WORDS = new Set([
  'pos',
  'debit',
  'credit',
  'card',
  'purchase',
  'ach',
  'ppd',
  'web',
  'ccd',
  'id',
  'recurring',
  'payment',
  'pmt',
  'autopay',
  'online',
  'checkcard',
  'visa',
  'mastercard',
  'withdrawal',
  'deposit',
  'direct',
  'dep',
  'transfer',
  'xfer',
  'des',
  'indn',
  'co',
  'ref',
  'www',
  'com',
  'inc',
  'llc',
]);

/** The key transactions of one payee share, or '' when nothing is left of the name. */
export function payeeKey(name: string): string {
  const words = name
    .toLowerCase()
    .replace(/[^a-z\s]/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 1 && !NOISE_WORDS.has(w));
  return words.slice(0, 3).join(' ');
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The day (midnight UTC) of an epoch-seconds time. */
const dayOf = (t: number) => Math.floor(t / DAY) * DAY;

/** The transactions of a group that keep to its amount, then its cadence; undefined when they are no stream. */
function streamOf(group: readonly RecurringInput[], direction: RecurringStream['direction'], now: number): RecurringStream | undefined {
  if (group.length < MIN_OCCURRENCES) return undefined;
  const center = median(group.map((t) => Math.abs(t.amount)));
  const slack = Math.max(center * AMOUNT_TOLERANCE, MIN_AMOUNT_SLACK);
  const kept = group.filter((t) => Math.abs(Math.abs(t.amount) - center) <= slack).sort((a, b) => a.date - b.date || a.id - b.id);
  if (kept.length < MIN_OCCURRENCES) return undefined;
  const gaps = kept.slice(1).map((t, i) => (dayOf(t.date) - dayOf(kept[i]!.date)) / DAY);
  const typical = median(gaps);
  if (!CADENCES.some((c) => typical >= c.minDays && typical <= c.maxDays)) return undefined;
  const gapSlack = Math.max(2, typical * 0.15);
  const regular = gaps.filter((g) => Math.abs(g - typical) <= gapSlack).length;
  if (regular < gaps.length * REGULAR_SHARE) return undefined;
  const amounts = kept.map((t) => Math.abs(t.amount));
  const cadence = Math.max(1, Math.round(gaps.reduce((a, b) => a + b, 0) / gaps.length));
  const last = kept[kept.length - 1]!;
  const expected = dayOf(last.date) + cadence * DAY;
  const categories = [...new Set(kept.map((t) => t.category).filter((c): c is string => c !== null && c !== ''))].sort();
  return {
    direction,
    accountId: last.accountId,
    normalizedPayeeName: last.normalizedPayeeName?.trim() || last.description.trim(),
    transactionCategories: categories,
    transactionIds: kept.map((t) => t.id),
    cadence,
    status: now <= expected + Math.ceil(cadence / 2) * DAY ? 'active' : 'inactive',
    expectedNextTransactionDate: expected,
    expectedNextTransactionAmount: round2(median(amounts.slice(-3))),
    minimumHistoricalAmount: round2(Math.min(...amounts)),
    maximumHistoricalAmount: round2(Math.max(...amounts)),
    meanHistoricalAmount: round2(amounts.reduce((a, b) => a + b, 0) / amounts.length),
    medianHistoricalAmount: round2(median(amounts)),
    countOfTransactions: kept.length,
  };
}

/** A group's transactions in bands of similar amounts: a band ends where the next amount is well above its smallest. */
function amountBands(items: readonly RecurringInput[]): RecurringInput[][] {
  const sorted = [...items].sort((a, b) => Math.abs(a.amount) - Math.abs(b.amount) || a.id - b.id);
  const bands: RecurringInput[][] = [];
  let floor = Number.NaN;
  for (const t of sorted) {
    const amount = Math.abs(t.amount);
    if (bands.length === 0 || amount > floor * (1 + 2 * AMOUNT_TOLERANCE) + MIN_AMOUNT_SLACK) {
      bands.push([]);
      floor = amount;
    }
    bands[bands.length - 1]!.push(t);
  }
  return bands;
}

/**
 * The recurring streams among the transactions, as of `now` (epoch seconds): outflows (debits) and inflows
 * (credits), each ordered by account, then payee. The same input in any order gives the same streams.
 */
export function detectRecurring(transactions: readonly RecurringInput[], now: number): { outflows: RecurringStream[]; inflows: RecurringStream[] } {
  const groups = new Map<string, { direction: RecurringStream['direction']; items: RecurringInput[] }>();
  for (const t of transactions) {
    if (t.amount === 0 || !Number.isFinite(t.amount)) continue;
    const key = payeeKey(t.normalizedPayeeName || t.description) || payeeKey(t.description);
    if (key === '') continue;
    const direction = t.amount < 0 ? 'outflow' : 'inflow';
    const groupKey = `${t.accountId}\u0000${direction}\u0000${key}`;
    const group = groups.get(groupKey) ?? { direction, items: [] };
    group.items.push(t);
    groups.set(groupKey, group);
  }
  const streams = [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([, g]) => amountBands(g.items).map((band) => streamOf(band, g.direction, now)))
    .filter((s): s is RecurringStream => s !== undefined);
  return { outflows: streams.filter((s) => s.direction === 'outflow'), inflows: streams.filter((s) => s.direction === 'inflow') };
}
