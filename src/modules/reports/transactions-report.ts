/**
 * The transactions report (docs/reports.md): every account asked for, with its transactions from fromDate to toDate,
 * narrowed by findTransaction.
 */
import type { Static } from 'typebox';
import type { FindTransaction } from '../../contract/schemas/reports.js';
import type { TransactionRecord } from '../aggregation/records.js';
import { DAY } from './balances.js';
import { byInstitution, coverage, reportAccountBase, reportTransaction } from './assets.js';
import type { ReportInput, ReportOptions, ReportPeriod } from './input.js';
import type { ReportBody } from './records.js';

/** The most a transactions report covers: 24 months, from fromDate to toDate. */
export const TRANSACTIONS_REPORT_MAX_DAYS = 731;

/** fromDate to toDate (the customer's now when absent); the service has checked both. */
export function transactionsReportPeriod(options: ReportOptions, asOf: number): ReportPeriod {
  const to = options.toDate ?? asOf;
  const from = options.fromDate ?? to - TRANSACTIONS_REPORT_MAX_DAYS * DAY;
  return { from, to, balancesFrom: from };
}

/** Whether a transaction meets every criterion of findTransaction (amounts compared without their sign). */
export function matchesFind(t: TransactionRecord, find: Static<typeof FindTransaction> | undefined): boolean {
  if (!find) return true;
  const text = find.findTransactionDescriptionMemo?.trim().toLowerCase();
  if (text && !t.description.toLowerCase().includes(text) && !(t.memo ?? '').toLowerCase().includes(text)) return false;
  const amount = Math.abs(t.amount);
  if (find.findTransactionAmountFrom !== undefined && amount < find.findTransactionAmountFrom) return false;
  if (find.findTransactionAmountTo !== undefined && amount > find.findTransactionAmountTo) return false;
  const categories = find.findTransactionCategory?.map((c) => c.toLowerCase());
  if (categories && categories.length > 0 && !categories.includes((t.categorization?.category ?? '').toLowerCase())) return false;
  return true;
}

/** The transactions report's body: accounts by institution with their matching transactions, newest first. */
export function transactionsReport(input: ReportInput, options: ReportOptions): ReportBody {
  const found: ReportInput = {
    ...input,
    accounts: input.accounts.map((a) => ({ ...a, transactions: a.transactions.filter((t) => matchesFind(t, options.findTransaction)) })),
  };
  const institutions = byInstitution(found, (a) => {
    const transactions = [...a.transactions].reverse();
    return {
      // The reference's account of this report has no owner fields.
      ...reportAccountBase(a, found, false),
      ...(a.transactions[0] !== undefined ? { oldestTransactionDate: a.transactions[0].postedDate } : {}),
      transactionsCount: transactions.length,
      transactions: transactions.map(reportTransaction),
    };
  });
  return { ...coverage(found, 365), institutions };
}
