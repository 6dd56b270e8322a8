/**
 * Statement files: an OFX/QFX file or a CSV export, uploaded by a partner (API) or a customer (Connect) for an
 * institution with no live connection, stored under the customer's statement-file login at that institution. The
 * first upload creates the login (no credentials, no connector session); later ones merge into it: accounts are
 * matched by their stable ref, transactions by theirs (the FITID for OFX; date, amount and description for CSV),
 * so what an earlier upload brought is not stored twice. New records raise the same events (and TxPUSH
 * notifications) as a refresh, through the same store path (syncTransactions, recordEvents).
 *
 * Everything an upload stores is written in one transaction that first locks the customer's row, so uploads of the
 * same customer run one at a time, whatever runs concurrently: no second login, account or transaction.
 *
 * Dependencies: each function takes one dependencies object, first. An Executor (the database, or the caller's open
 * transaction) when the database is all it needs and callers may run it inside their transaction; otherwise
 * Pick<Runtime, ...> of what it uses, or the Engine (a Runtime with the connector registry and settings) when it
 * reaches institutions or those settings. One that must also write in its caller's transaction takes it second.
 */
import type { AccountType } from '../../connectors/connector.js';
import { StatementFileError } from '../../connectors/statements/csv.js';
import { formatOfMediaType, readStatementFile, type StatementFormat } from '../../connectors/statements/file.js';
import type { ColumnMapping } from '../../connectors/statements/mapping.js';
import { statementAccountRecord, statementTransactionRecord } from '../../connectors/statements/records.js';
import type { StatementImport } from '../../connectors/statements/types.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Executor } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import { assertCanLinkAt, getCustomerForPartner } from '../customers/service.js';
import { updateAccountRow } from './accounts.repository.js';
import { accountRecord, insertAccount, listAccountRows, updateAccountData } from './accounts.service.js';
import { customerNow, sealJson } from './engine.js';
import { recordEvents } from './events.service.js';
import { findStatementFileLogin, insertLogin, lockCustomerForLinking, updateLogin } from './logins.repository.js';
import type { AccountRecord, AggregationEvent } from './records.js';
import type { AccountRow, InstitutionLoginRow } from './table.js';
import { transactionDateRange } from './transactions.repository.js';
import { syncTransactions } from './transactions.service.js';

export interface StatementUploadInput {
  partnerId: string;
  customerId: string | number;
  institutionId: number;
  /** The file as uploaded. */
  file: Uint8Array | undefined;
  /** The Content-Type it came with. */
  contentType?: string | undefined;
  /** The kind of file, when the caller says it. */
  format?: StatementFormat | undefined;
  /** CSV only: the column mapping, as the caller sent it (checked against the file). */
  mapping?: unknown;
  accountName?: string | undefined;
  accountType?: AccountType | undefined;
  currency?: string | undefined;
}

/** What an upload did, ids as numbers: the API answers it, Connect shows it its way. */
export interface StatementUploadResult {
  institutionLoginId: number;
  institutionId: number;
  loginCreated: boolean;
  format: StatementFormat;
  /** The file's accounts as stored after the upload. */
  accounts: AccountRecord[];
  transactionsAdded: number;
  transactionsAlreadyPresent: number;
  problems: StatementImport['problems'];
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
    case 'unknown_layout': {
      const found = error.details as { headers: string[]; headerRow: number; sample: string[][] };
      return new ServiceError('StatementLayoutUnknown', `${error.message} Send the file again with a column mapping.`, undefined, {
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

/** Reads the file, or refuses it with the catalogue error that says why. */
function readUpload(input: StatementUploadInput): StatementImport {
  const file = input.file;
  if (file === undefined || file.byteLength === 0)
    throw new ServiceError('MissingParameter', 'Missing parameter (request body): send the statement file as the body.');
  if (input.format === undefined && formatOfMediaType(input.contentType) === undefined) {
    throw new ServiceError(
      'UnsupportedMediaType',
      `Unsupported Content-Type "${input.contentType}": send the statement file as application/x-ofx, application/vnd.intu.qfx, text/csv or application/octet-stream.`,
    );
  }
  try {
    return readStatementFile(file, {
      ...(input.format !== undefined ? { format: input.format } : {}),
      ...(input.contentType !== undefined ? { contentType: input.contentType } : {}),
      ...(input.mapping !== undefined ? { mapping: input.mapping as ColumnMapping } : {}),
      ...(input.accountName !== undefined ? { accountName: input.accountName } : {}),
      ...(input.accountType !== undefined ? { accountType: input.accountType } : {}),
      ...(input.currency !== undefined ? { currency: input.currency } : {}),
    });
  } catch (error) {
    if (error instanceof StatementFileError) throw refusal(error);
    throw error;
  }
}

/**
 * Uploads a statement file for a customer at an institution (any institution of the catalogue the customer may use:
 * a testing customer only test institutions, as for linking). 404 for another partner's customer or an unknown
 * institution; the file's own refusals as StatementFileTooLarge, StatementFileUnreadable, StatementLayoutUnknown,
 * StatementMappingInvalid. `within` runs in the transaction that stores the upload (Connect adds its webhook).
 */
export async function uploadStatementFile(
  runtime: Pick<Runtime, 'database' | 'clock' | 'keys'>,
  input: StatementUploadInput,
  within?: (tx: Executor, result: StatementUploadResult) => Promise<void>,
): Promise<StatementUploadResult> {
  const db = runtime.database.kysely;
  const customer = await getCustomerForPartner(db, input.partnerId, input.customerId);
  await assertCanLinkAt(runtime.database, customer, input.institutionId);
  const read = readUpload(input);

  return db.transaction().execute(async (tx) => {
    // Uploads of one customer run one at a time, so two at once cannot both create the login or an account.
    await lockCustomerForLinking(tx, customer.id);
    const now = customerNow(runtime, customer);
    const success = {
      aggregation_status_code: 0,
      aggregation_status_message: null,
      aggregation_attempt_at: now,
      aggregation_success_at: now,
      updated_at: now,
    };
    const existing = await findStatementFileLogin(tx, customer.id, input.institutionId);
    const login: InstitutionLoginRow = existing
      ? await updateLogin(tx, existing.id, success)
      : await insertLogin(tx, {
          partner_id: customer.partner_id,
          customer_id: customer.id,
          institution_id: input.institutionId,
          source: 'statement-file',
          // Nothing to keep between uploads: the file is the source, and no credentials exist.
          session_encrypted: sealJson(runtime, {}),
          credentials_encrypted: null,
          ...success,
          created_at: now,
        });

    const stored = new Map((await listAccountRows(tx, customer, { institutionLoginId: login.id })).map((a) => [a.ref, a]));
    let nextPosition = Math.max(0, ...[...stored.values()].map((a) => a.display_position)) + 1;
    const byAccount = new Map<string, StatementImport['transactions']>();
    for (const t of read.transactions) {
      const list = byAccount.get(t.accountRef);
      if (list) list.push(t);
      else byAccount.set(t.accountRef, [t]);
    }

    const events: AggregationEvent[] = [];
    const rows: AccountRow[] = [];
    let added = 0;
    let incoming = 0;
    for (const a of read.accounts) {
      const before = stored.get(a.ref);
      const transactions = (byAccount.get(a.ref) ?? []).map((t) => statementTransactionRecord(t, a.currency));
      const latest = transactions.reduce((m, t) => Math.max(m, t.transactionDate), 0);
      // The file's balance, unless it has none or the stored one is newer (an older statement uploaded later).
      const fileBalanceDate = Math.min(a.balanceDate ?? (latest || now), now);
      const keepStored = before !== undefined && (a.balance === undefined || Number(before.balance_date) > fileBalanceDate);
      const record = statementAccountRecord(a, {
        balance: keepStored ? before.balance : (a.balance ?? 0),
        balanceDate: keepStored ? Number(before.balance_date) : a.balance === undefined ? now : fileBalanceDate,
        displayPosition: before?.display_position ?? nextPosition++,
      });
      let row: AccountRow;
      let change: 'created' | 'modified' | undefined;
      if (before) {
        const updated = await updateAccountData(tx, before, record, now);
        row = updated.row;
        if (updated.changed) change = 'modified';
      } else {
        row = await insertAccount(tx, login, record, now);
        change = 'created';
      }
      const transactionEvents: AggregationEvent[] = [];
      let from = row.history_from === null ? null : Number(row.history_from);
      if (transactions.length > 0) {
        // A loop, not Math.min(...dates): a file may hold 100,000 of them.
        let first = Number.POSITIVE_INFINITY;
        for (const t of transactions) first = Math.min(first, t.transactionDate);
        const sync = await syncTransactions(tx, row, transactions, first, latest, now);
        added += sync.created;
        incoming += new Set(transactions.map((t) => t.ref)).size;
        transactionEvents.push(...sync.events);
        from = from === null ? first : Math.min(from, first);
      }
      const range = await transactionDateRange(tx, row.id);
      row = await updateAccountRow(tx, row.id, {
        aggregation_status_code: 0,
        aggregation_attempt_at: now,
        aggregation_success_at: now,
        first_aggregated_at: row.first_aggregated_at ?? now,
        history_from: from,
        oldest_transaction_at: range.oldest,
        last_transaction_at: range.last,
      });
      rows.push(row);
      if (change) {
        events.push({
          class: 'account',
          type: change,
          partnerId: customer.partner_id,
          customerId: customer.id,
          accountId: row.id,
          record: await accountRecord(tx, row),
        });
      }
      events.push(...transactionEvents);
    }
    await recordEvents(runtime, tx, events);

    const accounts: AccountRecord[] = [];
    for (const row of rows) accounts.push(await accountRecord(tx, row));
    const result: StatementUploadResult = {
      institutionLoginId: login.id,
      institutionId: login.institution_id,
      loginCreated: existing === undefined,
      format: read.format,
      accounts,
      transactionsAdded: added,
      transactionsAlreadyPresent: incoming - added,
      problems: read.problems,
    };
    // Callers (Connect) add what must commit with the upload, such as its webhook.
    if (within) await within(tx, result);
    return result;
  });
}
