/**
 * Whether an account arriving from a source (a statement file's account, a newly linked live account) is one the
 * customer already has, in pure rules: what each existing account has in common with it (the evidence), and the
 * verdict. Certain: the same institution and the same number, or last four, and type, or transaction ids (FITIDs)
 * they share. Uncertain, so the user is asked: the same number or last four and type at another institution, shared
 * transaction ids at another institution, or, where one side has no number, amounts and dates that overlap. Never a
 * guess: two certain candidates are a question too (docs/aggregation.md, "One account, several sources").
 */

/** How an existing account matched. */
export type MatchReason = 'accountNumber' | 'lastFour' | 'transactionIds' | 'amounts';

export interface IncomingAccountFacts {
  institutionId: number;
  number: string;
  type: string;
}

export interface ExistingAccountFacts extends IncomingAccountFacts {
  id: number;
  /** The last four the institution stated apart from the number, if any. */
  last4: string | null;
  /** Incoming transactions whose institution id (FITID) the account stores too. */
  sharedTransactionIds: number;
  /** Incoming transactions with an amount and date the account has too, and how many of them fall in its dates. */
  sharedAmounts: number;
  comparableAmounts: number;
}

export interface Candidate {
  id: number;
  reason: MatchReason;
  certain: boolean;
}

export type AccountVerdict = { kind: 'same'; id: number; reason: MatchReason } | { kind: 'ask'; candidates: Candidate[] } | { kind: 'new' };

/** Letters and digits only, upper case: how numbers are compared. */
export function numberKey(number: string): string {
  return number.replace(/[^\p{L}\p{N}]/gu, '').toUpperCase();
}

/** A number with no masking, long enough to be more than its last four. */
function fullNumber(number: string): string | undefined {
  const key = numberKey(number);
  return key.length > 4 && !/^X+/.test(key) ? key : undefined;
}

function lastFour(number: string, stated: string | null = null): string | undefined {
  const key = numberKey(number);
  const four = key.length >= 4 ? key.slice(-4) : (stated ?? '');
  return four.length === 4 && !four.includes('X') ? four : undefined;
}

/** What an existing account has in common with the incoming one, or undefined for nothing worth a question. */
export function candidateOf(incoming: IncomingAccountFacts, existing: ExistingAccountFacts): Candidate | undefined {
  const sameInstitution = incoming.institutionId === existing.institutionId;
  const sameType = incoming.type === existing.type;
  const fullIn = fullNumber(incoming.number);
  const fullEx = fullNumber(existing.number);
  const fourIn = lastFour(incoming.number);
  const fourEx = lastFour(existing.number, existing.last4);
  // Two full numbers that differ are two accounts, whatever else they share.
  if (fullIn !== undefined && fullEx !== undefined && fullIn !== fullEx) return undefined;
  const of = (reason: MatchReason, certain: boolean): Candidate => ({ id: existing.id, reason, certain });

  if (fullIn !== undefined && fullIn === fullEx) return of('accountNumber', sameInstitution && sameType);
  if (fourIn !== undefined && fourIn === fourEx && sameType) return of('lastFour', sameInstitution);
  if (existing.sharedTransactionIds > 0) return of('transactionIds', sameInstitution && sameType);
  // Without a number to compare, what the two hold: most of the incoming transactions in the account's dates.
  const unnumbered = fourIn === undefined || fourEx === undefined;
  if (unnumbered && existing.sharedAmounts >= 2 && existing.sharedAmounts * 2 >= existing.comparableAmounts) return of('amounts', false);
  return undefined;
}

/** The verdict over every existing account: one certain match, a question, or a new account. */
export function verdictOf(incoming: IncomingAccountFacts, existing: readonly ExistingAccountFacts[]): AccountVerdict {
  const candidates = existing.flatMap((e) => candidateOf(incoming, e) ?? []);
  const certain = candidates.filter((c) => c.certain);
  if (certain.length === 1) return { kind: 'same', id: certain[0]!.id, reason: certain[0]!.reason };
  if (certain.length > 1) return { kind: 'ask', candidates: certain };
  if (candidates.length > 0) return { kind: 'ask', candidates };
  return { kind: 'new' };
}
