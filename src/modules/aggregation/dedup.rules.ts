/**
 * When two sources' transactions of one account are the same transaction (docs/aggregation.md, "One account, several
 * sources"): by the institution's own id where both carry one, otherwise by date, amount and description. Pure
 * rules, no queries: dedup.service.ts applies them, account-match.service.ts uses them as evidence.
 */

/** How far apart (days, either way) two sources may date the same transaction: a card purchase posts days later. */
export const DUPLICATE_WINDOW_DAYS = 4;
export const DUPLICATE_WINDOW_SECONDS = DUPLICATE_WINDOW_DAYS * 86_400;

/** A transaction as the rules compare it. */
export interface Comparable {
  date: number;
  amount: number;
  description: string;
  payee: string | null;
  institutionId: string | null;
}

/** Words of a text without accents, case, punctuation, or words holding digits (card, store and reference numbers). */
export function descriptionKey(text: string | null | undefined): string {
  if (!text) return '';
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && !/\d/.test(w))
    .join(' ');
}

const compact = (key: string) => key.replace(/ /g, '');

/** Cents, so amounts read from text and from JSON compare equal. */
export const cents = (amount: number) => Math.round(amount * 100);

/**
 * Whether two descriptions name the same thing: equal payees, equal descriptions, or one description the start of the
 * other (a source that cuts it short, or adds a city) once reduced to letters.
 */
export function descriptionsAgree(a: Pick<Comparable, 'description' | 'payee'>, b: Pick<Comparable, 'description' | 'payee'>): boolean {
  const pa = compact(descriptionKey(a.payee));
  const pb = compact(descriptionKey(b.payee));
  if (pa.length > 0 && pa === pb) return true;
  const da = compact(descriptionKey(a.description));
  const db = compact(descriptionKey(b.description));
  if (da.length === 0 || db.length === 0) return false;
  if (da === db) return true;
  const [short, long] = da.length <= db.length ? [da, db] : [db, da];
  return short.length >= 5 && long.startsWith(short);
}

/**
 * Whether `stored` (another source's) is the same transaction as `incoming`: equal institution ids when both carry
 * one (different ones are different transactions, however alike); otherwise the same amount, dates within the window
 * and descriptions that agree.
 */
export function sameTransaction(incoming: Comparable, stored: Comparable): boolean {
  if (incoming.institutionId !== null && stored.institutionId !== null) return incoming.institutionId === stored.institutionId;
  return (
    cents(incoming.amount) === cents(stored.amount) && Math.abs(incoming.date - stored.date) <= DUPLICATE_WINDOW_SECONDS && descriptionsAgree(incoming, stored)
  );
}

/**
 * Pairs incoming transactions with stored ones they duplicate, each stored one taken at most once, the nearest in date
 * first: returns, for each incoming index that found one, the stored index.
 */
export function pairDuplicates(incoming: readonly Comparable[], stored: readonly Comparable[]): Map<number, number> {
  const taken = new Set<number>();
  const pairs = new Map<number, number>();
  for (let i = 0; i < incoming.length; i++) {
    const t = incoming[i]!;
    let best = -1;
    for (let j = 0; j < stored.length; j++) {
      if (taken.has(j) || !sameTransaction(t, stored[j]!)) continue;
      if (best === -1 || Math.abs(stored[j]!.date - t.date) < Math.abs(stored[best]!.date - t.date)) best = j;
    }
    if (best !== -1) {
      taken.add(best);
      pairs.set(i, best);
    }
  }
  return pairs;
}
