/**
 * Statement files: an OFX/QFX file or a CSV export, uploaded by a partner (API) or a customer (Connect) for an
 * institution with no live connection, stored under the customer's statement-file login at that institution. The
 * first upload creates the login (no credentials, no connector session); later ones merge into it: accounts are
 * matched by their stable ref, transactions by theirs (the FITID for OFX; date, amount and description for CSV),
 * so what an earlier upload brought is not stored twice. New records raise the same events (and TxPUSH
 * notifications) as a refresh, through the same store path (syncTransactions, recordEvents).
 *
 * A large file must not hold up anyone else: it is read in a worker thread (read-off-thread.ts), and stored in
 * short transactions: an account with at most a slice of transactions in one, a larger one's account and then its
 * transactions a slice at a time, one slice of all the uploads running
 * per turn of the event loop (platform/turns.ts), each after every other statement waiting for the database
 * (Database.yielding). Each slice commits with its own events, so a stored transaction always has its event. The upload holds
 * the login's lease (the one refreshes take) from start to end, renewed as it goes, so uploads of the same
 * login run one at a time in any process: no second login, account or transaction. An upload cut short (a process
 * that dies) leaves the slices it stored, and the same file uploaded again stores the rest.
 */
import type { Static } from 'typebox';
import type { AccountType, ConnectorPosition, ConnectorTransaction } from '../../connectors/connector.js';
import { StatementFileError } from '../../connectors/statements/csv.js';
import { formatOfMediaType, STATEMENT_MEDIA_TYPES } from '../../connectors/statements/file.js';
import type { StatementFormatName, StatementMappingUsed } from '../../contract/schemas/statements.js';
import { type AccountDates, type ReadStatement, readStatementFileOffThread } from '../../connectors/statements/read-off-thread.js';
import type { ColumnMapping } from '../../connectors/statements/mapping.js';

import type { StatementAccount, StatementImport } from '../../connectors/statements/types.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Executor } from '../../platform/db/database.js';
import { randomString } from '../../platform/secrets.js';
import { longWork } from '../../platform/turns.js';
import { assertCanLinkAt, getCustomerForPartner } from '../customers/service.js';
import type { CustomerRow } from '../customers/table.js';
import { loginsOfAccounts, selectPositions, updateAccountRow } from './accounts.repository.js';
import { accountRecords, listAccountRows } from './accounts.service.js';
import { balanceRowCount, recordStatementBalance, statementBalanceRows, UPLOAD_SLICE, writeBalanceRows, writeBalanceSlices } from './balances.service.js';
import { customerNow, sealJson, serviceNow, type Engine } from './engine.js';
import { recordEvents } from './events.service.js';
import { deleteLogin, findStatementFileLogin, insertLogin, lockCustomerForLinking, takeRefreshLease, updateLeasedLogin } from './logins.repository.js';
import type { AccountRecord, AggregationEvent } from './records.js';
import { UPLOAD_LEASE, waitForLease } from './refresh.service.js';
import { rememberStatementMapping, type SavedStatementMapping, savedStatementMappings } from './statement-mappings.service.js';
import { statementAccountRecord } from './statements.rules.js';
import { contentDigest, type KeptStatementFile, keepStatementFile, writeStatementFile } from './statement-files.service.js';
import { storeAccountTransactions, storeFetchedAccount } from './store.service.js';
import { placeStatementAccounts, type StatementPlacement, statementFeed } from './statement-placement.service.js';
import type { MatchReason } from './account-match.rules.js';
import type { SameAsAnswers } from './account-match.service.js';
import type { AccountRow, InstitutionLoginRow } from './table.js';
import { transactionDateRange } from './transactions.repository.js';
import { pairTransfers } from './transfers.service.js';

/**
 * Transactions stored per database transaction: each slice holds the other requests waiting for the database (on
 * SQLite, the event loop too). Larger slices store faster, fewer commits each waiting for an fsync, but another
 * partner's request then waits longer behind one (docs/benchmarks.md, "The size of an upload's slices").
 */
const SLICE = 50;

export interface StatementUploadInput {
  partnerId: string;
  customerId: string | number;
  institutionId: number;
  /** The file as uploaded. */
  file: Uint8Array | undefined;
  /** The Content-Type it came with. */
  contentType?: string | undefined;
  /** The kind of file, when the caller says it. */
  format?: StatementFormatName | undefined;
  /** CSV only: the column mapping, as the caller sent it (checked against the file). */
  mapping?: unknown;
  accountName?: string | undefined;
  accountType?: AccountType | undefined;
  currency?: string | undefined;
  /** The answer to an earlier AccountMatchUncertain: per file account (its handle), an account id or `new`. */
  sameAs?: SameAsAnswers | undefined;
}

/** What an upload did, ids as numbers: the API answers it, Connect shows it its way. */
export interface StatementUploadResult {
  institutionLoginId: number;
  institutionId: number;
  loginCreated: boolean;
  format: StatementFormatName;
  /** The file's accounts as stored after the upload. */
  accounts: AccountRecord[];
  transactionsAdded: number;
  /** The file as uploaded, kept as an asset (statement-files.service.ts). */
  fileAssetId?: string | undefined;
  transactionsAlreadyPresent: number;
  /** Transactions another source of the same account (a live connection, another file) had stored: not stored twice. */
  transactionsMatched: number;
  /** The file's accounts that went into an account the customer already had under another ref, and how it was found. */
  accountMatches: { ref: string; accountId: number; matchedBy: MatchReason | 'answer' }[];
  problems: StatementImport['problems'];
  /** CSV only: which column mapping the file was read with (statement-mappings.service.ts). */
  mapping?: Static<typeof StatementMappingUsed> | undefined;
}

/** Most characters of a header or sample cell sent back with 14112 (a cell may be 64 KB). */
const DETAIL_CELL_CHARS = 120;

const cut = (text: string) => (text.length > DETAIL_CELL_CHARS ? `${text.slice(0, DETAIL_CELL_CHARS - 1)}…` : text);

/** A reader's refusal as the catalogue error the caller sees. */
function refusal(error: StatementFileError): ServiceError {
  switch (error.code) {
    case 'too_large':
    case 'too_many_rows':
      return new ServiceError('StatementFileTooLarge', error.message);
    case 'unsupported_format':
      return new ServiceError('StatementFormatUnsupported', error.message, undefined, error.details as { formats: string[] });
    case 'unknown_layout': {
      const found = error.details as { headers: string[]; headerRow: number; sample: string[][]; mapping?: ColumnMapping; ask?: 'sign'[] };
      // A card export whose signs the file cannot tell: the mapping it would be read with, and the question.
      const asked = found.ask?.includes('sign')
        ? ' Send it again with the column mapping in details.mapping and negate: true if the file shows purchases and money out as positive amounts, false if it shows them as negative amounts.'
        : ' Send the file again with a column mapping.';
      return new ServiceError('StatementLayoutUnknown', `${error.message}${asked}`, undefined, {
        ...(found.ask ? { ask: found.ask, mapping: found.mapping } : {}),
        headers: found.headers.map(cut),
        headerRow: found.headerRow,
        sample: found.sample.map((row) => row.map(cut)),
      });
    }
    case 'invalid_mapping': {
      const found = (error.details ?? {}) as { errors?: string[]; headers?: string[] };
      return new ServiceError('StatementMappingInvalid', `The column mapping does not fit the file: ${error.message}`, undefined, {
        errors: found.errors ?? [error.message],
        ...(found.headers ? { headers: found.headers.map(cut) } : {}),
      });
    }
    case 'invalid_options': {
      // The reader names the option first ("currency: an ISO 4217 code such as USD.").
      const named = /^(\w+): (.*)$/s.exec(error.message);
      return new ServiceError('InvalidParameter', named ? `Invalid parameter (${named[1]}): ${named[2]}` : `Invalid parameter: ${error.message}`);
    }
    default:
      return new ServiceError('StatementFileUnreadable', error.message);
  }
}

/** Reads the file (in a worker thread), or refuses it with the catalogue error that says why. */
async function readUpload(input: StatementUploadInput, savedMappings: readonly SavedStatementMapping[]): Promise<ReadStatement> {
  const file = input.file;
  if (file === undefined || file.byteLength === 0)
    throw new ServiceError('MissingParameter', 'Missing parameter (request body): send the statement file as the body.');
  if (input.format === undefined && formatOfMediaType(input.contentType) === undefined) {
    throw new ServiceError(
      'UnsupportedMediaType',
      `Unsupported Content-Type "${input.contentType}": send the statement file as one of ${STATEMENT_MEDIA_TYPES.join(', ')}.`,
    );
  }
  try {
    return await readStatementFileOffThread(
      file,
      {
        ...(input.format !== undefined ? { format: input.format } : {}),
        ...(input.contentType !== undefined ? { contentType: input.contentType } : {}),
        ...(input.mapping !== undefined ? { mapping: input.mapping as ColumnMapping } : {}),
        ...(input.accountName !== undefined ? { accountName: input.accountName } : {}),
        ...(input.accountType !== undefined ? { accountType: input.accountType } : {}),
        ...(input.currency !== undefined ? { currency: input.currency } : {}),
        ...(savedMappings.length > 0 ? { savedMappings } : {}),
      },
      // The file is the request's body, read into a buffer of its own (http/plugins/statement-files.ts).
      { transfer: true },
    );
  } catch (error) {
    if (error instanceof StatementFileError) throw refusal(error);
    throw error;
  }
}

/**
 * The checks and the read an upload starts with, which a preview makes too: the partner's customer (404 for another
 * partner's), an institution it may use, and the file read (in a worker thread) with the partner's saved mappings.
 */
export async function readStatementUpload(
  engine: Engine,
  input: StatementUploadInput,
): Promise<{ customer: CustomerRow; saved: SavedStatementMapping[]; read: ReadStatement }> {
  const db = engine.database.kysely;
  const customer = await getCustomerForPartner(db, input.partnerId, input.customerId);
  await assertCanLinkAt(engine.database, customer, input.institutionId);
  // The partner's saved column mappings, for a CSV file sent without one (any other format needs none).
  const said = input.format ?? formatOfMediaType(input.contentType);
  const saved = input.mapping === undefined && (said === 'csv' || said === 'sniff') ? await savedStatementMappings(db, input.partnerId) : [];
  return { customer, saved, read: await readUpload(input, saved) };
}

/**
 * The period an upload gives an account's statements: the file's own statement dates where it states them (OFX's
 * DTSTART and DTEND), else the days of its first and last transaction; never narrower than its transactions.
 */
function statementPeriodOf(account: StatementAccount, dates: { first: number; latest: number }): { first: number; latest: number } {
  const stated = account.statedPeriod;
  return {
    first: stated?.start === undefined ? dates.first : Math.min(stated.start, dates.first),
    latest: stated?.end === undefined ? dates.latest : Math.max(stated.end, dates.latest),
  };
}

/**
 * Uploads a statement file for a customer at an institution (any institution of the catalogue the customer may use:
 * a testing customer only test institutions, as for linking). 404 for another partner's customer or an unknown
 * institution; the file's own refusals as StatementFileTooLarge, StatementFileUnreadable, StatementLayoutUnknown,
 * StatementMappingInvalid; 409 AggregationInProgress when another upload of the same login held it for the whole
 * wait. `within` runs in the transaction that ends the upload (Connect adds its webhook).
 */
export async function uploadStatementFile(
  engine: Engine,
  input: StatementUploadInput,
  within?: (tx: Executor, result: StatementUploadResult) => Promise<void>,
): Promise<StatementUploadResult> {
  const db = engine.database.kysely;
  // A copy to keep (statement-files.service.ts): the reader's thread takes the upload's own buffer.
  const original = input.file === undefined ? undefined : Buffer.from(input.file);
  const { customer, saved, read } = await readStatementUpload(engine, input);
  // Where each account goes is decided (or asked) before anything is stored or leased.
  const placed = await placeStatementAccounts(engine, customer, input.institutionId, read, input.sameAs);
  const owner = `${UPLOAD_LEASE}${randomString(16)}`;
  const leased: number[] = [];
  try {
    // The statement-file login, only when the file has an account of its own: one matched to live accounts alone makes none.
    const needsOwn = [...placed.values()].some((p) => p.kind === 'own');
    // Every existing login the file goes into is leased in one order, by id, the file's own one among them: two
    // uploads taking two logins in opposite orders each held one and waited for the other until one gave up (409).
    // A file login made by this upload comes last, with the newest id.
    const existingOwn = needsOwn ? await findStatementFileLogin(db, customer.id, input.institutionId) : undefined;
    const logins = [
      ...new Set([
        ...[...placed.values()].flatMap((p) => (p.kind === 'matched' ? [Number(p.row.institution_login_id)] : [])),
        ...(existingOwn ? [Number(existingOwn.id)] : []),
      ]),
    ].sort((a, b) => a - b);
    for (const id of logins) {
      await leaseExisting(engine, id, owner);
      leased.push(id);
    }
    const own = needsOwn ? await leaseLogin(engine, customer, input.institutionId, owner) : undefined;
    if (own && !leased.includes(own.login.id)) leased.push(own.login.id);
    const now = customerNow(engine, customer);
    const stored = own ? await listAccountRows(db, customer, { institutionLoginId: own.login.id }) : [];
    const storedByRef = new Map(stored.map((r) => [r.ref, r]));
    await assertPlacementsHold(db, placed, storedByRef, own);
    let nextPosition = Math.max(0, ...stored.map((a) => a.display_position)) + 1;
    const rows: AccountRow[] = [];
    const accountMatches: StatementUploadResult['accountMatches'] = [];
    const periods: KeptStatementFile['periods'] = [];
    let added = 0;
    let matched = 0;
    let incoming = 0;
    const context: StoreContext = { engine, login: own?.login, owner, now, read };
    for (const a of read.accounts) {
      const place = placed.get(a.ref) ?? { kind: 'own' };
      const dates = read.dates.get(a.ref) ?? { count: 0, distinct: 0, first: 0, latest: 0 };
      let planned: PlannedAccount;
      if (place.kind === 'matched') planned = { account: a, dates, matched: place };
      else {
        // Read under the lease: an upload of the same file that ran meanwhile may have created it.
        const before = storedByRef.get(a.ref) ?? place.row;
        planned = { account: a, dates, own: { before, displayPosition: before?.display_position ?? nextPosition++ } };
      }
      const d = dates.count > SLICE ? await storeLargeAccount(context, planned) : await storeSmallAccount(context, planned);
      if (place.kind === 'matched') accountMatches.push({ ref: place.ref, accountId: d.row.id, matchedBy: place.matchedBy });
      added += d.created;
      matched += d.duplicates;
      incoming += dates.distinct;
      if (dates.count > 0) periods.push({ accountId: d.row.id, ...statementPeriodOf(a, dates) });
      rows.push(d.row);
    }

    // The file's pieces first, each in a short transaction: in the last one they held everyone for their commit.
    const fileAssetId = original
      ? await writeStatementFile(engine.database, {
          partnerId: input.partnerId,
          customerId: customer.id,
          format: read.format,
          content: original,
          sha256: await contentDigest(original),
          now,
        })
      : undefined;
    return await db.transaction().execute(async (tx) => {
      for (const id of leased) await renewLease(engine, tx, id, owner, { refresh_lease_until: null, refresh_lease_owner: null });
      const accounts = await accountRecords(tx, rows);
      const mapping = await rememberStatementMapping(tx, input.partnerId, read.layout, saved, serviceNow(engine));
      if (fileAssetId) await keepStatementFile(tx, { fileId: fileAssetId, periods, now });
      const loginId = own?.login.id ?? Number(rows[0]!.institution_login_id);
      const result: StatementUploadResult = {
        institutionLoginId: loginId,
        institutionId: own?.login.institution_id ?? rows[0]!.institution_id,
        loginCreated: own?.created ?? false,
        format: read.format,
        accounts,
        transactionsAdded: added,
        ...(fileAssetId ? { fileAssetId } : {}),
        transactionsAlreadyPresent: incoming - added - matched,
        transactionsMatched: matched,
        accountMatches,
        problems: read.problems,
        ...(mapping ? { mapping } : {}),
      };
      // Callers (Connect) add what must commit with the upload, such as its webhook.
      if (within) await within(tx, result);
      return result;
    });
  } catch (error) {
    for (const id of leased) await updateLeasedLogin(db, id, owner, { refresh_lease_until: null, refresh_lease_owner: null });
    throw error;
  }
}

/** Takes the refresh lease of an existing login for the upload, waiting while a refresh or another upload holds it. */
async function leaseExisting(engine: Engine, loginId: number, owner: string): Promise<void> {
  for (;;) {
    const now = serviceNow(engine);
    if (await takeRefreshLease(engine.database.kysely, loginId, owner, now, now + engine.settings.refreshLeaseSeconds)) return;
    const free = await waitForLease(engine, loginId).catch((error: unknown) => {
      // Deleted while the upload waited (a live sign-in took the file login's accounts over, or the customer deleted it).
      if (error instanceof ServiceError && error.errorName === 'ResourceNotFound') throw accountsChanged();
      throw error;
    });
    if (!free) {
      throw new ServiceError('AggregationInProgress', `Institution login ${loginId} is still being refreshed or uploaded to; try again later.`);
    }
  }
}

/**
 * The accounts were placed before the leases were taken: while this upload waited for them, a live sign-in may have
 * taken a file's account over (moving it to its own login and deleting the emptied file login), or an account or a
 * login may have been deleted. Stored now, the file would go into an account under another login than the one whose
 * lease this upload holds, or fail halfway. So 409 (AggregationInProgress), and sending the file again places it anew;
 * a file login this upload made is removed again, having no accounts.
 */
async function assertPlacementsHold(
  db: Executor,
  placed: ReadonlyMap<string, StatementPlacement>,
  storedByRef: ReadonlyMap<string, AccountRow>,
  own: { login: InstitutionLoginRow; created: boolean } | undefined,
): Promise<void> {
  const matched = [...placed.values()].flatMap((p) => (p.kind === 'matched' ? [p.row] : []));
  const loginOf = await loginsOfAccounts(
    db,
    matched.map((r) => Number(r.id)),
  );
  const changed =
    matched.some((r) => loginOf.get(Number(r.id)) !== Number(r.institution_login_id)) ||
    [...placed].some(([ref, p]) => p.kind === 'own' && p.row !== undefined && storedByRef.get(ref)?.id !== p.row.id);
  if (!changed) return;
  if (own?.created) await deleteLogin(db, own.login.id);
  throw accountsChanged();
}

const accountsChanged = () =>
  new ServiceError(
    'AggregationInProgress',
    "The customer's accounts changed while this upload waited for them (an account was linked live, moved or deleted); send the file again.",
  );

/** A file's account as it will be stored: into an account the customer has (matched), or the file login's own. */
interface PlannedAccount {
  account: StatementAccount;
  dates: AccountDates;
  matched?: Extract<StatementPlacement, { kind: 'matched' }>;
  own?: { before: AccountRow | undefined; displayPosition: number };
}

/** What storing a file's accounts needs besides the accounts. */
interface StoreContext {
  engine: Engine;
  /** The file's own login, when it has accounts of its own. */
  login: InstitutionLoginRow | undefined;
  owner: string;
  now: number;
  read: ReadStatement;
}

/** What storing one account did. */
interface StoredAccount {
  row: AccountRow;
  created: number;
  duplicates: number;
}

/** Stores an account with more transactions than a slice: the account, its transactions a slice at a time, its balances, its dates. */
async function storeLargeAccount(context: StoreContext, planned: PlannedAccount): Promise<StoredAccount> {
  const { engine, owner, now } = context;
  const { account: a, dates } = planned;
  const row = planned.matched
    ? await adoptAccount(engine, planned.matched.row, owner, dates, now)
    : await storeAccount(engine, context.login!, owner, { account: a, ...planned.own!, dates, now });
  const result = await storeTransactions(
    engine,
    Number(row.institution_login_id),
    owner,
    row,
    context.read.transactionsOf(a.ref),
    now,
    statementFeed(context.read.format, a.ref),
  );
  await recordStatementBalance(engine, row, a, dates, now);
  return { row: await settleDates(engine, row), created: result.created, duplicates: result.duplicates };
}

/**
 * Stores an account whose transactions fit in one slice in one short transaction, as storeLargeAccount does in
 * several: the account, its transactions with their events, its balances when they fit in a slice of balance rows
 * (UPLOAD_SLICE; a statement's balance derives a row for every day back to its first transaction, so more follow in
 * slices of their own), its dates. A file of many small accounts is then one transaction an account, not five
 * (docs/benchmarks.md, "A file of many accounts").
 */
async function storeSmallAccount(context: StoreContext, planned: PlannedAccount): Promise<StoredAccount> {
  const { engine, owner, now } = context;
  const { account: a, dates } = planned;
  await longWork.turn();
  const stored = await engine.database.yielding.transaction().execute(async (tx) => {
    await renewLease(engine, tx, planned.matched ? Number(planned.matched.row.institution_login_id) : context.login!.id, owner);
    let row: AccountRow;
    const events: AggregationEvent[] = [];
    if (planned.matched) row = await adoptAccountWithin(tx, planned.matched.row, dates, now);
    else {
      const account = await storeAccountWithin(tx, context.login!, { account: a, ...planned.own!, dates, now });
      row = account.row;
      events.push(...account.events);
    }
    const list = [...context.read.transactionsOf(a.ref)].flat();
    const sync =
      list.length > 0 ? await storeSliceWithin(tx, row, list, now, statementFeed(context.read.format, a.ref)) : { created: 0, duplicates: 0, events: [] };
    await recordEvents(engine, tx, [...events, ...(await pairTransfers(tx, sync.events, now))]);
    const balances = await statementBalanceRows(tx, row, a, dates, now);
    const fits = balances !== undefined && balanceRowCount(balances) <= UPLOAD_SLICE;
    if (fits) await writeBalanceRows(tx, balances);
    return { row: await settleDatesWithin(tx, row), created: sync.created, duplicates: sync.duplicates, later: fits ? undefined : balances };
  });
  if (stored.later) await writeBalanceSlices(engine, stored.later);
  return stored;
}

/**
 * A file's account matched to an account the customer has: its data stays its source's (the file says less than a
 * live connection, and another file's number or name is as good), and it is marked aggregated, as the file's
 * transactions go into it; one short transaction.
 */
async function adoptAccount(engine: Engine, row: AccountRow, owner: string, dates: AccountDates, now: number): Promise<AccountRow> {
  await longWork.turn();
  return engine.database.yielding.transaction().execute(async (tx) => {
    await renewLease(engine, tx, Number(row.institution_login_id), owner);
    return adoptAccountWithin(tx, row, dates, now);
  });
}

/** adoptAccount's writes, in the caller's transaction (which holds the login's lease). */
function adoptAccountWithin(tx: Executor, row: AccountRow, dates: AccountDates, now: number): Promise<AccountRow> {
  const from = dates.count > 0 ? dates.first : undefined;
  return updateAccountRow(tx, row.id, {
    first_aggregated_at: row.first_aggregated_at ?? now,
    history_from: from === undefined ? row.history_from : row.history_from === null ? from : Math.min(Number(row.history_from), from),
  });
}

/**
 * The customer's statement-file login at the institution, created by the first upload, with its lease held for
 * this upload: waits while another upload (or refresh) holds it.
 */
async function leaseLogin(
  engine: Engine,
  customer: CustomerRow,
  institutionId: number,
  owner: string,
): Promise<{ login: InstitutionLoginRow; created: boolean; owner: string }> {
  for (;;) {
    type Taken = { login: InstitutionLoginRow; created: boolean } | { waitFor: number };
    const taken = await engine.database.kysely.transaction().execute(async (tx): Promise<Taken> => {
      // Uploads of one customer find or create the login one at a time, so two at once cannot both create it.
      await lockCustomerForLinking(tx, customer.id);
      const now = customerNow(engine, customer);
      const leaseUntil = serviceNow(engine) + engine.settings.refreshLeaseSeconds;
      const success = {
        aggregation_status_code: 0,
        aggregation_status_message: null,
        aggregation_attempt_at: now,
        aggregation_success_at: now,
        updated_at: now,
      };
      const existing = await findStatementFileLogin(tx, customer.id, institutionId);
      if (!existing) {
        const login = await insertLogin(tx, {
          partner_id: customer.partner_id,
          customer_id: customer.id,
          institution_id: institutionId,
          source: 'statement-file',
          // Nothing to keep between uploads: the file is the source, and no credentials exist.
          session_encrypted: sealJson(engine, {}),
          credentials_encrypted: null,
          ...success,
          refresh_lease_until: leaseUntil,
          refresh_lease_owner: owner,
          created_at: now,
        });
        return { login, created: true };
      }
      // This upload holds it already when one of the file's accounts went into an account of this login
      // (leaseExisting): waiting for that lease would wait for itself.
      const held = existing.refresh_lease_owner === owner;
      if (!held && !(await takeRefreshLease(tx, existing.id, owner, serviceNow(engine), leaseUntil))) return { waitFor: existing.id };
      await updateLeasedLogin(tx, existing.id, owner, { ...success, refresh_lease_until: leaseUntil });
      return { login: { ...existing, ...success }, created: false };
    });
    if ('login' in taken) return { login: taken.login, created: taken.created, owner };
    if (!(await waitForLease(engine, taken.waitFor))) {
      throw new ServiceError('AggregationInProgress', `Another upload of institution login ${taken.waitFor} is still being stored; try again later.`);
    }
  }
}

/**
 * The account's row with its first and last transaction dates as stored: a transaction whose date an upload changed
 * may have moved them from what storeAccount set.
 */
async function settleDates(engine: Engine, row: AccountRow): Promise<AccountRow> {
  await longWork.turn();
  return engine.database.yielding.transaction().execute((tx) => settleDatesWithin(tx, row));
}

/** settleDates in the caller's transaction. */
async function settleDatesWithin(tx: Executor, row: AccountRow): Promise<AccountRow> {
  const range = await transactionDateRange(tx, row.id);
  const stored = (value: number | null) => (value === null ? null : Number(value));
  if (range.oldest === stored(row.oldest_transaction_at) && range.last === stored(row.last_transaction_at)) return row;
  return updateAccountRow(tx, row.id, { oldest_transaction_at: range.oldest, last_transaction_at: range.last });
}

/** Renews the upload's lease on the login (with `changes`), or fails: another process took it over. */
async function renewLease(engine: Engine, tx: Executor, loginId: number, owner: string, changes: Parameters<typeof updateLeasedLogin>[3] = {}): Promise<void> {
  const until = serviceNow(engine) + engine.settings.refreshLeaseSeconds;
  if (!(await updateLeasedLogin(tx, loginId, owner, { refresh_lease_until: until, ...changes }))) {
    throw new ServiceError('AggregationInProgress', `Institution login ${loginId} was taken over while the upload was stored; send the file again.`);
  }
}

/** Renews the lease when a third of it has gone by since `renewed` (a slice need not write the login each time); when it was renewed. */
async function keepLease(engine: Engine, tx: Executor, loginId: number, owner: string, renewed: number): Promise<number> {
  const now = serviceNow(engine);
  if (now - renewed < engine.settings.refreshLeaseSeconds / 3) return renewed;
  await renewLease(engine, tx, loginId, owner);
  return now;
}

interface AccountUpload {
  account: StatementAccount;
  before: AccountRow | undefined;
  /** What the file holds of the account's transactions. */
  dates: AccountDates;
  displayPosition: number;
  now: number;
}

/**
 * Creates or updates the file's account, with the dates its transactions will give it, and records its event; one
 * short transaction. It is aggregated from here on, so it is marked so before its first transaction is stored.
 */
async function storeAccount(engine: Engine, login: InstitutionLoginRow, owner: string, upload: AccountUpload): Promise<AccountRow> {
  await longWork.turn();
  return engine.database.yielding.transaction().execute(async (tx) => {
    await renewLease(engine, tx, login.id, owner);
    const stored = await storeAccountWithin(tx, login, upload);
    await recordEvents(engine, tx, stored.events);
    return stored.row;
  });
}

/** storeAccount's writes, in the caller's transaction (which holds the login's lease): the row, and the events to record. */
async function storeAccountWithin(tx: Executor, login: InstitutionLoginRow, upload: AccountUpload): Promise<{ row: AccountRow; events: AggregationEvent[] }> {
  const { account: a, before, now } = upload;
  const { latest } = upload.dates;
  // The file's balance, unless it has none or the stored one is newer (an older statement uploaded later).
  const fileBalanceDate = Math.min(a.balanceDate ?? (latest || now), now);
  const keepStored = before !== undefined && (a.balance === undefined || Number(before.balance_date) > fileBalanceDate);
  const record = statementAccountRecord(a, {
    balance: keepStored ? before.balance : (a.balance ?? 0),
    balanceDate: keepStored ? Number(before.balance_date) : a.balance === undefined ? now : fileBalanceDate,
    displayPosition: upload.displayPosition,
  });
  // The file's positions replace the stored ones as a refresh's do, under the balance's rule: they are its parts.
  const keepPositions = before !== undefined && (a.positions === undefined || keepStored);
  if (keepPositions && 'position' in record) {
    record.position = (await selectPositions(tx, before.id)).map((p) => ({ ...(JSON.parse(p.record) as Omit<ConnectorPosition, 'ref'>), ref: p.ref }));
  }
  // The transactions follow (a slice at a time, or in the same transaction for a small account); the account takes
  // the dates they will give.
  const { first, count } = upload.dates;
  const transactions = count > 0 ? { list: [], from: first, to: latest, part: { first, latest } } : undefined;
  return storeFetchedAccount(tx, login, before, { account: record, aggregated: true, ...(transactions ? { transactions } : {}) }, now);
}

/**
 * Stores an account's transactions a slice per transaction, each with its events, under `source` (statementFeed):
 * how many were new, and how many another source of the account had stored (dedup.service.ts).
 */
async function storeTransactions(
  engine: Engine,
  loginId: number,
  owner: string,
  row: AccountRow,
  chunks: Iterable<ConnectorTransaction[]>,
  now: number,
  source: string,
): Promise<{ created: number; duplicates: number }> {
  let created = 0;
  let duplicates = 0;
  let renewed = serviceNow(engine);
  for (const slice of slices(chunks)) {
    // One slice of all the uploads running per turn of the event loop; other requests go between them.
    await longWork.turn();
    const stored = await engine.database.yielding.transaction().execute(async (tx) => {
      renewed = await keepLease(engine, tx, loginId, owner, renewed);
      const sync = await storeSliceWithin(tx, row, slice, now, source);
      await recordEvents(engine, tx, await pairTransfers(tx, sync.events, now));
      return sync;
    });
    created += stored.created;
    duplicates += stored.duplicates;
  }
  return { created, duplicates };
}

/**
 * Stores one slice of an account's transactions in the caller's transaction, which records the events it answers: the
 * one storing path, the partner's rules, other sources' duplicates dropped, the sync (store.service.ts).
 */
function storeSliceWithin(
  tx: Executor,
  row: AccountRow,
  slice: readonly ConnectorTransaction[],
  now: number,
  source: string,
): ReturnType<typeof storeAccountTransactions> {
  let from = Number.POSITIVE_INFINITY;
  let to = 0;
  for (const t of slice) {
    from = Math.min(from, t.transactionDate);
    to = Math.max(to, t.transactionDate);
  }
  return storeAccountTransactions(tx, row, slice, from, to, now, { part: true, source });
}

function* slices(chunks: Iterable<ConnectorTransaction[]>): Generator<ConnectorTransaction[]> {
  for (const chunk of chunks) for (let i = 0; i < chunk.length; i += SLICE) yield chunk.slice(i, i + SLICE);
}
