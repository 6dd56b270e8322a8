/**
 * The same account once, however it arrives: an account a statement file holds, or a newly linked live account, is
 * matched to the accounts the customer already has (account-match.rules.ts). A certain match goes to the existing
 * account; an uncertain one is a question (409, AccountMatchUncertain) whose details name the candidates, answered
 * by sending the request again with `sameAs` ({ref: accountId | "new"}). Only the customer's own accounts are ever
 * candidates, so another partner's or customer's never are.
 */
import { maskAccountNumber } from '../../connectors/account-number.js';
import type { ConnectorTransaction } from '../../connectors/connector.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { AccountMatchQuestion } from '../../contract/schemas/error.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { Static } from 'typebox';
import { getInstitution } from '../institutions/service.js';
import { type ExistingAccountFacts, type MatchReason, verdictOf } from './account-match.rules.js';
import { countInstitutionIds, transactionsBetween } from './dedup.repository.js';
import { cents, DUPLICATE_WINDOW_SECONDS } from './dedup.rules.js';

/** Every stored transaction, whatever its source (none is the empty one). */
const ANY_SOURCE = { source: '', nullIsOther: true };
import type { AccountRow } from './table.js';

/** Most of an incoming account's transactions compared with an existing account's: enough to tell, cheap to read. */
export const MATCH_SAMPLE = 200;

/** The answer to the question: the existing account's id, or `new`. */
export type SameAsAnswers = Readonly<Record<string, string>>;

/** An account arriving from a source. */
export interface IncomingAccount {
  /** How the question names it and `sameAs` answers it: a handle, never the institution's ref (it may hold the number). */
  ref: string;
  name: string;
  type: string;
  number: string;
  /** Some of its transactions (up to MATCH_SAMPLE), as evidence. */
  transactions: readonly ConnectorTransaction[];
}

/** Where an incoming account goes: an existing account (how it was found), or a new one. */
export type Placement = { kind: 'existing'; row: AccountRow; matchedBy: MatchReason | 'answer' } | { kind: 'new' };

type Question = Static<typeof AccountMatchQuestion>;

/** The facts the rules compare of an existing account, with the evidence the incoming transactions give. */
async function factsOf(db: Executor, row: AccountRow, incoming: IncomingAccount, sharedIds: number): Promise<ExistingAccountFacts> {
  let sharedAmounts = 0;
  let comparableAmounts = 0;
  const sample = incoming.transactions;
  if (sample.length > 0 && row.oldest_transaction_at !== null && row.last_transaction_at !== null) {
    const from = Number(row.oldest_transaction_at) - DUPLICATE_WINDOW_SECONDS;
    const to = Number(row.last_transaction_at) + DUPLICATE_WINDOW_SECONDS;
    const inDates = sample.filter((t) => t.transactionDate >= from && t.transactionDate <= to);
    comparableAmounts = inDates.length;
    if (inDates.length > 0) {
      const first = Math.min(...inDates.map((t) => t.transactionDate));
      const last = Math.max(...inDates.map((t) => t.transactionDate));
      const stored = await transactionsBetween(db, row.id, first - DUPLICATE_WINDOW_SECONDS, last + DUPLICATE_WINDOW_SECONDS, ANY_SOURCE);
      const used = new Set<number>();
      for (const t of inDates) {
        const hit = stored.findIndex(
          (s, i) => !used.has(i) && cents(s.amount) === cents(t.amount) && Math.abs(Number(s.effective_date) - t.transactionDate) <= DUPLICATE_WINDOW_SECONDS,
        );
        if (hit !== -1) {
          used.add(hit);
          sharedAmounts++;
        }
      }
    }
  }
  return {
    id: row.id,
    institutionId: row.institution_id,
    number: row.number,
    type: row.type,
    last4: row.real_account_number_last4 ?? (row.account_number_display.length === 4 ? row.account_number_display : null),
    sharedTransactionIds: sharedIds,
    sharedAmounts,
    comparableAmounts,
  };
}

/** "Everyday Checking ••2632": an account as a person recognises it. */
function said(name: string, display: string): string {
  return display && !name.endsWith(display) ? `${name} ••${display}` : name;
}

/** How placeIncomingAccounts runs: the answers given, the executor (a caller's transaction), whether to ask. */
export interface PlacementOptions {
  answers?: SameAsAnswers | undefined;
  executor?: Executor;
  /** false: an uncertain account is a new one instead of a question (a caller that cannot ask, as addall). */
  ask?: boolean;
}

/**
 * Places each incoming account: `answers` first (sameAs), then the rules over `existing` (the customer's accounts a
 * match may go to). Throws AccountMatchUncertain, before anything is stored, when any is uncertain and unanswered.
 */
export async function placeIncomingAccounts(
  database: Database,
  institutionId: number,
  incoming: readonly IncomingAccount[],
  existing: readonly AccountRow[],
  options: PlacementOptions = {},
): Promise<Map<string, Placement>> {
  const db = options.executor ?? database.kysely;
  const answers = options.answers ?? {};
  const byId = new Map(existing.map((r) => [String(r.id), r]));
  // An answer naming no incoming account changes nothing: an account it was meant for and did not reach is asked again.
  const placements = new Map<string, Placement>();
  const questions: Question[] = [];
  const claimed = new Set<number>();
  for (const a of incoming) {
    const answer = answers[a.ref];
    if (answer !== undefined) {
      if (answer === 'new') placements.set(a.ref, { kind: 'new' });
      else {
        const row = byId.get(answer.trim());
        if (!row) throw new ServiceError('InvalidParameter', `Invalid parameter (sameAs): account ${answer} is not one the answer may name for ${a.ref}.`);
        placements.set(a.ref, { kind: 'existing', row, matchedBy: 'answer' });
        claimed.add(row.id);
      }
      continue;
    }
    const open = existing.filter((r) => !claimed.has(r.id));
    const ids = [...new Set(a.transactions.flatMap((t) => (t.institutionTransactionId ? [t.institutionTransactionId] : [])))];
    const shared = await countInstitutionIds(
      db,
      open.map((r) => r.id),
      ids,
    );
    const facts = await Promise.all(open.map((r) => factsOf(db, r, a, shared.get(r.id) ?? 0)));
    const verdict = verdictOf({ institutionId, number: a.number, type: a.type }, facts);
    if (verdict.kind === 'new' || (verdict.kind === 'ask' && options.ask === false)) placements.set(a.ref, { kind: 'new' });
    else if (verdict.kind === 'same') {
      const row = open.find((r) => r.id === verdict.id)!;
      placements.set(a.ref, { kind: 'existing', row, matchedBy: verdict.reason });
      claimed.add(row.id);
    } else {
      const candidates = [];
      for (const c of verdict.candidates) {
        const row = open.find((r) => r.id === c.id)!;
        candidates.push({
          accountId: String(row.id),
          name: row.name,
          type: row.type,
          accountNumberDisplay: row.account_number_display,
          institutionId: String(row.institution_id),
          institutionName: (await getInstitution(database, row.institution_id).catch(() => undefined))?.name ?? '',
          institutionLoginId: Number(row.institution_login_id),
          matchedBy: c.reason,
        });
      }
      const display = maskAccountNumber(a.number)
        .replace(/[^\p{L}\p{N}]/gu, '')
        .slice(-4);
      questions.push({ ref: a.ref, name: a.name, type: a.type, accountNumberDisplay: display, candidates });
    }
  }
  if (questions.length > 0) {
    const q = questions[0]!;
    const first = q.candidates[0]!;
    const others = q.candidates.length > 1 ? ` (or ${q.candidates.length - 1} more in details)` : '';
    throw new ServiceError(
      'AccountMatchUncertain',
      `Is this the same account as ${said(first.name, first.accountNumberDisplay)}${others}? "${said(q.name, q.accountNumberDisplay)}" may be an account the customer already has. Send the request again with sameAs naming, for each account in details.sameAs, the account it is (its accountId) or "new".`,
      undefined,
      { ask: ['sameAs'], sameAs: questions },
    );
  }
  return placements;
}

/** Parses the `sameAs` answer (JSON text or an object) into ref → answer; 400 when it is neither. */
export function parseSameAs(value: unknown): SameAsAnswers | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== 'string')) {
    throw new ServiceError(
      'InvalidParameter',
      'Invalid parameter (sameAs): an object naming, for each account asked about (its ref), the accountId it is or "new", such as {"k3J…":"5011000001"}.',
    );
  }
  return parsed as SameAsAnswers;
}
