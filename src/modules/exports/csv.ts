/**
 * CSV export: one row per transaction, the account in columns. Text cells are quoted, and those a spreadsheet would
 * take for a formula (starting with =, +, -, @, a tab or a carriage return, as OWASP's "CSV Injection" lists) are
 * neutralised with a leading single quote; a text that starts with single quotes before one of those gets one more,
 * so the statement reader, which takes one such quote off (unwrapCell), reads every text back as it was. Amounts are
 * plain numbers (`-12.50`), never neutralised, so they stay numbers in a spreadsheet and read back as they were.
 */
import { amountText } from '../../platform/amount-text.js';
import { isoDay } from '../../connectors/statements/values.js';
import { type ExportAccount, type ExportContext, type ExportTransaction, type ExportWriter, type ExportWriterRow, plainText } from './writer.js';

/** The header row; the statement reader knows it as the `ledgerlink` layout (src/connectors/statements/layouts.ts). */
export const CSV_EXPORT_HEADER = [
  'Date',
  'Posted Date',
  'Account',
  'Account ID',
  'Account Number',
  'Account Type',
  'Currency',
  'Amount',
  'Description',
  'Memo',
  'Check Number',
  'Type',
  'Transaction ID',
] as const;

const FORMULA_START = /^'*[=+\-@\t\r]/;

/** A text cell: neutralised when a spreadsheet would read it as a formula, always quoted. */
export function csvTextCell(text: string): string {
  const guarded = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${guarded.replace(/"/g, '""')}"`;
}

function row(cells: readonly string[]): string {
  return `${cells.join(',')}\r\n`;
}

function csvWriter(_context: ExportContext): ExportWriter {
  return {
    start: () => row(CSV_EXPORT_HEADER.map((h) => h)),
    accountStart: () => '',
    transactions: (account: ExportAccount, rows: readonly ExportTransaction[]) => {
      const accountCells = [csvTextCell(plainText(account.name)), String(account.id), csvTextCell(account.number), account.type, account.currency];
      let out = '';
      for (const t of rows) {
        out += row([
          isoDay(t.effectiveDate),
          isoDay(t.postedDate ?? t.effectiveDate),
          ...accountCells,
          amountText(t.amount),
          csvTextCell(plainText(t.description)),
          csvTextCell(plainText(t.memo ?? '')),
          csvTextCell(plainText(t.checkNum ?? '')),
          t.type ?? '',
          String(t.id),
        ]);
      }
      return out;
    },
    accountEnd: () => '',
    end: () => '',
  };
}

export const CSV_EXPORT: ExportWriterRow = { create: csvWriter };
