/**
 * Where each account of an uploaded statement file goes, decided before anything is stored: the account of the
 * customer's statement-file login at the institution with the same ref (as every upload has done), else an account the
 * customer already has that it certainly is (a live one, another file's: account-match.service.ts), else a new account
 * of that login; an uncertain one is asked (409 AccountMatchUncertain) and answered with the upload's `sameAs`.
 */
import { createHash } from 'node:crypto';
import type { ConnectorTransaction } from '../../connectors/connector.js';
import type { ReadStatement } from '../../connectors/statements/read-off-thread.js';
import type { StatementFormatName } from '../../contract/schemas/statements.js';
import { hmacBase64Url } from '../../platform/secrets.js';
import { longWork } from '../../platform/turns.js';
import type { CustomerRow } from '../customers/table.js';
import { type IncomingAccount, MATCH_SAMPLE, placeIncomingAccounts, type SameAsAnswers } from './account-match.service.js';
import type { MatchReason } from './account-match.rules.js';
import { listAccountRows } from './accounts.service.js';
import { STATEMENT_SOURCE } from './dedup.service.js';
import type { Engine } from './engine.js';
import { findStatementFileLogin } from './logins.repository.js';
import type { AccountRow } from './table.js';

/**
 * A file's account's place: `own`, the statement-file login's account of the same ref (`row`), or a new one there;
 * `matched`, an account it was matched to (any of the customer's logins), whose own data the file leaves as it is.
 */
export type StatementPlacement = { kind: 'own'; row?: AccountRow } | { kind: 'matched'; row: AccountRow; matchedBy: MatchReason | 'answer'; ref: string };

const HANDLE_PURPOSE = 'statement-account';

/**
 * How the question names a file's account and `sameAs` answers it: a keyed digest of the customer, the institution
 * and the file's ref, the same in every upload of that account; never the ref, which may hold the full number.
 */
export function fileAccountHandle(engine: Pick<Engine, 'keys'>, customerId: number, institutionId: number, ref: string): string {
  return hmacBase64Url(engine.keys.derive(HANDLE_PURPOSE), `${customerId}\u0000${institutionId}\u0000${ref}`).slice(0, 22);
}

/**
 * The source a file's account's transactions are stored under: the statement source with the format and a digest of
 * the account's ref, so two files of one account in different formats (or under different names) are two sources,
 * whose transactions are compared, while the same file uploaded again is matched by its refs alone.
 */
export function statementFeed(format: StatementFormatName, accountRef: string): string {
  return `${STATEMENT_SOURCE}:${format}:${createHash('sha256').update(accountRef).digest('hex').slice(0, 16)}`;
}

/** Transactions the samples read per turn of the event loop: the reader's chunk (read-off-thread.ts). */
const SAMPLE_TURN = 200;

function sampleOf(chunks: Iterable<ConnectorTransaction[]>): ConnectorTransaction[] {
  const out: ConnectorTransaction[] = [];
  for (const chunk of chunks) {
    for (const t of chunk) {
      if (out.length === MATCH_SAMPLE) return out;
      out.push(t);
    }
  }
  return out;
}

/** Each of the file's accounts' place, by the file's ref; throws AccountMatchUncertain when one must be asked. */
export async function placeStatementAccounts(
  engine: Engine,
  customer: CustomerRow,
  institutionId: number,
  read: ReadStatement,
  sameAs: SameAsAnswers | undefined,
): Promise<Map<string, StatementPlacement>> {
  const db = engine.database.kysely;
  const login = await findStatementFileLogin(db, customer.id, institutionId);
  const all = await listAccountRows(db, customer);
  const own = new Map(all.filter((r) => login !== undefined && r.institution_login_id === login.id).map((r) => [r.ref, r]));
  const placed = new Map<string, StatementPlacement>();
  const incoming: IncomingAccount[] = [];
  const refOf = new Map<string, string>();
  // A file may hold hundreds of accounts, each sample made from its transactions: a turn each time the samples made
  // since the last one read a chunk's worth of them, so that other requests go on meanwhile.
  let sampledSinceTurn = SAMPLE_TURN;
  for (const a of read.accounts) {
    const row = own.get(a.ref);
    if (row) {
      placed.set(a.ref, { kind: 'own', row });
      continue;
    }
    if (sampledSinceTurn >= SAMPLE_TURN) {
      await longWork.turn();
      sampledSinceTurn = 0;
    }
    sampledSinceTurn += Math.max(1, read.dates.get(a.ref)?.count ?? 0);
    const handle = fileAccountHandle(engine, customer.id, institutionId, a.ref);
    refOf.set(handle, a.ref);
    incoming.push({ ref: handle, name: a.name, type: a.type, number: a.number, transactions: sampleOf(read.transactionsOf(a.ref)) });
  }
  if (incoming.length === 0) return placed;
  // Accounts the file names by their ref are its own; any other the customer has may be a match.
  const fileRefs = new Set(read.accounts.map((a) => a.ref));
  const existing = all.filter((r) => !(own.get(r.ref) === r && fileRefs.has(r.ref)));
  const placements = await placeIncomingAccounts(engine.database, institutionId, incoming, existing, { answers: sameAs });
  for (const [handle, p] of placements) {
    const ref = refOf.get(handle)!;
    placed.set(ref, p.kind === 'new' ? { kind: 'own' } : { kind: 'matched', row: p.row, matchedBy: p.matchedBy, ref: handle });
  }
  return placed;
}
