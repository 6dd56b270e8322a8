/**
 * Exports of a customer's transactions as files (CSV, OFX, QIF): the formats as a table (the contract's row and a
 * writer here), the checks of a request, and the file written a page at a time, giving other requests their turn
 * between pages, so that an export of any size holds neither the event loop nor its whole file in memory.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { maskAccountNumber } from '../../connectors/account-number.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS, type ExportFormat } from '../../contract/schemas/exports.js';
import type { Executor } from '../../platform/db/database.js';
import { epochSeconds } from '../../platform/clock.js';
import type { Runtime } from '../../platform/dependencies.js';
import { getAccountRow, listAccountRows } from '../aggregation/accounts.service.js';
import type { AccountRow } from '../aggregation/table.js';
import { getCustomerForPartner } from '../customers/service.js';
import { CSV_EXPORT } from './csv.js';
import { OFX_EXPORT } from './ofx.js';
import { QIF_EXPORT } from './qif.js';
import { type ExportCursor, selectExportPage } from './repository.js';
import type { ExportAccount, ExportContext, ExportTransaction, ExportWriterRow } from './writer.js';

/** Each format's writer; the contract's EXPORT_FORMATS row says what it is called and answered as. */
const WRITERS: Record<ExportFormat, ExportWriterRow> = { csv: CSV_EXPORT, ofx: OFX_EXPORT, qif: QIF_EXPORT };

/** Transactions read (and written) per turn of the event loop. */
export const EXPORT_PAGE_SIZE = 500;

/** The latest date an absent `toDate` stands for (9999-12-31). */
const END_OF_TIME = 253_402_300_799;
const DAY = 86_400;

export interface ExportRequest {
  partnerId: string;
  customerId: string;
  /** One account of the customer; all of them when absent. */
  accountId?: string;
  format: string;
  fromDate?: string | undefined;
  toDate?: string | undefined;
}

/** A checked export, ready to be written. */
export interface PreparedExport {
  format: ExportFormat;
  mediaType: string;
  filename: string;
  /** The file, a page of transactions per piece. */
  pieces(): AsyncGenerator<Buffer>;
}

/** Whether a text names an export format. */
export function isExportFormat(format: string): format is ExportFormat {
  return Object.hasOwn(EXPORT_FORMATS, format);
}

/**
 * A date of the request: epoch seconds, or a UTC day (its first second for `fromDate`, its last for `toDate`);
 * 14171 for anything else.
 */
export function parseExportDate(text: string | undefined, name: 'fromDate' | 'toDate'): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const value = text.trim();
  if (/^\d{1,12}$/.test(value)) return Number(value);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day) {
    const start = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) / 1000;
    if (new Date(start * 1000).toISOString().slice(0, 10) === value) return name === 'fromDate' ? start : start + DAY - 1;
  }
  throw new ServiceError('ExportDatesInvalid', `${name}: give epoch seconds or a day as YYYY-MM-DD, not ${JSON.stringify(value.slice(0, 40))}.`);
}

function exportAccount(row: AccountRow): ExportAccount {
  return {
    id: Number(row.id),
    name: row.name,
    number: maskAccountNumber(row.number),
    type: row.type,
    currency: row.currency,
    balance: row.balance,
    balanceDate: Number(row.balance_date),
    institutionId: Number(row.institution_id),
  };
}

/**
 * Checks an export request (the customer and account first, so another partner's ids are 404 whatever else the
 * request says; then the format, 14170, and the dates, 14171) and answers it ready to write.
 */
export async function prepareExport(runtime: Pick<Runtime, 'database' | 'clock'>, request: ExportRequest): Promise<PreparedExport> {
  const db = runtime.database.kysely;
  const customer = await getCustomerForPartner(db, request.partnerId, request.customerId);
  const rows = request.accountId !== undefined ? [await getAccountRow(db, customer, request.accountId)] : await listAccountRows(db, customer);
  const format = request.format.trim().toLowerCase();
  if (!isExportFormat(format)) {
    throw new ServiceError(
      'ExportFormatUnknown',
      `format: ${JSON.stringify(request.format.slice(0, 40))} is not an export format; use ${EXPORT_FORMAT_NAMES.join(', ')}.`,
    );
  }
  const fromDate = parseExportDate(request.fromDate, 'fromDate');
  const toDate = parseExportDate(request.toDate, 'toDate');
  if (fromDate !== undefined && toDate !== undefined && fromDate > toDate) {
    throw new ServiceError('ExportDatesInvalid', 'fromDate: it is after toDate; give the earlier date first.');
  }
  const accounts = inExportOrder(format, rows.map(exportAccount));
  const now = epochSeconds(runtime.clock);
  const row = EXPORT_FORMATS[format];
  const window = [request.fromDate, request.toDate].every((d) => d !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(d.trim()))
    ? `-${request.fromDate!.trim()}-to-${request.toDate!.trim()}`
    : '';
  const filename = `transactions-${customer.id}${request.accountId !== undefined ? `-${accounts[0]!.id}` : ''}${window}.${row.extension}`;
  return {
    format,
    mediaType: row.mediaType,
    filename,
    pieces: () => writeExport(format, { accounts, fromDate, toDate, now }, databasePages(db, fromDate, toDate)),
  };
}

/** Reads the page of an account's transactions after a cursor (the first page without one). */
export type ExportPageReader = (accountId: number, after: ExportCursor | undefined) => Promise<ExportTransaction[]>;

/** The file of a format: the writer's start, each account's transactions a page at a time (a turn each), its end. */
export async function* writeExport(format: ExportFormat, context: ExportContext, readPage: ExportPageReader): AsyncGenerator<Buffer> {
  const writer = WRITERS[format].create(context);
  let pending = writer.start();
  for (const account of context.accounts) {
    pending += writer.accountStart(account);
    let after: ExportCursor | undefined;
    for (;;) {
      const page = await readPage(account.id, after);
      if (page.length > 0) {
        pending += writer.transactions(account, page);
        const last = page[page.length - 1]!;
        after = { effectiveDate: last.effectiveDate, id: last.id };
      }
      if (pending !== '') yield Buffer.from(pending, 'utf8');
      pending = '';
      if (page.length < EXPORT_PAGE_SIZE) break;
      // Another request's turn before the next page.
      await nextTurn();
    }
    pending += writer.accountEnd(account);
  }
  pending += writer.end();
  if (pending !== '') yield Buffer.from(pending, 'utf8');
}

/** The accounts in the order a format writes them. */
export function inExportOrder(format: ExportFormat, accounts: ExportAccount[]): ExportAccount[] {
  const order = WRITERS[format].order;
  return order ? order(accounts) : accounts;
}

/** A page of an account's posted transactions in the window, from the database. */
function databasePages(db: Executor, fromDate: number | undefined, toDate: number | undefined): ExportPageReader {
  return async (accountId, after) => {
    const page = await selectExportPage(db, accountId, fromDate ?? 0, toDate ?? END_OF_TIME, after, EXPORT_PAGE_SIZE);
    return page.map((t) => ({
      id: Number(t.id),
      amount: t.amount,
      description: t.description,
      memo: t.memo,
      checkNum: t.check_num,
      type: t.type,
      transactionDate: t.transaction_date === null ? null : Number(t.transaction_date),
      postedDate: t.posted_date === null ? null : Number(t.posted_date),
      effectiveDate: Number(t.effective_date),
    }));
  };
}
