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
 * Pairs incoming transactions with stored ones they duplicate, each stored one taken at most once: returns, for each
 * incoming index that found one, the stored index. As many pairs as can be made (a maximum matching), so the result
 * does not depend on the order the transactions come in: taking, in file order, the nearest stored one for each left
 * a later one unpaired when its only match had gone to an earlier one that had another (a file dating each purchase
 * two days after the live source). Each prefers the nearest in date; the earliest incoming ones choose first.
 */
export function pairDuplicates(incoming: readonly Comparable[], stored: readonly Comparable[]): Map<number, number> {
  const options = incoming.map((t) =>
    stored
      .flatMap((s, j) => (sameTransaction(t, s) ? [j] : []))
      .sort((a, b) => Math.abs(stored[a]!.date - t.date) - Math.abs(stored[b]!.date - t.date) || a - b),
  );
  // Which incoming transaction holds each stored one.
  const holder = new Map<number, number>();
  // Kuhn's augmenting paths: a stored transaction already held is taken when its holder can move to another.
  const place = (i: number, seen: Set<number>): boolean => {
    for (const j of options[i]!) {
      if (seen.has(j)) continue;
      seen.add(j);
      const other = holder.get(j);
      if (other === undefined || place(other, seen)) {
        holder.set(j, i);
        return true;
      }
    }
    return false;
  };
  const order = incoming.map((_, i) => i).sort((a, b) => incoming[a]!.date - incoming[b]!.date || a - b);
  for (const i of order) if (options[i]!.length > 0) place(i, new Set());
  return new Map([...holder].map(([j, i]) => [i, j] as [number, number]).sort((a, b) => a[0] - b[0]));
}
