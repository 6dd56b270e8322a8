/**
 * Who is on the other side of a transaction, as a key that groups a payer's deposits (or a payee's debits) month
 * after month although the institution's text changes: dates, reference numbers and trace ids go, and so do the words
 * banks wrap payroll and ACH entries in.
 */
import type { AnalysisTransaction } from './types.js';

/** Words that say how money moved, not who moved it. */
const NOISE = new Set([
  'ach',
  'ppd',
  'ccd',
  'web',
  'tel',
  'dir',
  'dep',
  'direct',
  'deposit',
  'payroll',
  'pay',
  'payment',
  'pmt',
  'salary',
  'credit',
  'debit',
  'transfer',
  'online',
  'electronic',
  'recurring',
  'id',
  'ref',
  'trace',
  'co',
  'inc',
  'llc',
  'ltd',
  'corp',
  'the',
  'from',
  'to',
  'for',
  'xx',
  'xxx',
  'xxxx',
  'st',
  'autopay',
  'auto',
  'purchase',
  'pos',
  'card',
  'des',
  'indn',
]);

/** The words of a text that name a party: lower case, letters only, without the noise words. */
export function payeeWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z\s]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 1 && !NOISE.has(w));
}

/**
 * The grouping key of a transaction's counterpart: its normalised payee when the transaction has one, else the first
 * three naming words of its description (then memo).
 */
export function payeeKey(t: Pick<AnalysisTransaction, 'payee' | 'description' | 'memo'>): string {
  const fromPayee = t.payee ? payeeWords(t.payee) : [];
  if (fromPayee.length) return fromPayee.join(' ');
  const words = payeeWords(t.description);
  const chosen = words.length ? words : payeeWords(t.memo ?? '');
  return chosen.slice(0, 3).join(' ') || 'unknown';
}

/** A readable name for a stream: the payee as the institution's data names it, else the key in title case. */
export function payeeName(t: Pick<AnalysisTransaction, 'payee' | 'description' | 'memo'>): string {
  if (t.payee?.trim()) return t.payee.trim();
  return payeeKey(t)
    .split(' ')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** The last four digits of an account a text names masked (`XXXXXX1234`, `****1234`, `ending in 1234`), if any. */
export function maskedAccountTail(text: string): string | undefined {
  return /(?:X{2,}|\*{2,}|ENDING(?: IN)? )(\d{4})\b/i.exec(text)?.[1];
}
