/**
 * What a report kind computes from (ReportInput): the customer, its consumer, the as-of time from the customer's
 * clock, and the accounts the report covers with their transactions and daily balances over the report's period.
 * Read once per report by the worker, in one place, so kinds are pure functions of it and of the options asked for
 * (ReportOptions), and tests can build both by hand.
 */
import type { TimeIntervalType } from '../../contract/schemas/report-analysis.js';
import type { Static } from 'typebox';
import type { FindTransaction, ReportCustomField } from '../../contract/schemas/reports.js';
import type { Executor } from '../../platform/db/database.js';
import { positionsOfAccounts, selectCustomerAccounts } from '../aggregation/accounts.repository.js';
import { selectBalances } from '../aggregation/balances.repository.js';
import { dayText } from '../aggregation/balances.service.js';
import { toAccountRecord, toTransactionRecord, type AccountRecord, type TransactionRecord, type TransactionRecordRow } from '../aggregation/records.js';
import type { ConsumerRecord } from '../consumers/records.js';
import type { CustomerRow } from '../customers/table.js';
import { selectInstitutionsNamed, selectReportTransactions } from './repository.js';

/** One UTC day's balance of an account: the latest known on that day (aggregation's daily balance history). */
export interface DailyBalance {
  /** YYYY-MM-DD, UTC. */
  day: string;
  balance: number;
  availableBalance: number | null;
}

/** An account the report covers. */
export interface ReportAccountInput {
  account: AccountRecord;
  institutionName: string;
  /** The institution's home page (urlHomeApp). */
  institutionUrl: string;
  /** Dated within the period, in postedDate order (then id); categorised ones carry categorization. */
  transactions: TransactionRecord[];
  /** The days of the balance window that have a stored balance, oldest first (days with none are left out). */
  balances: DailyBalance[];
  /** Posted ones dated from the period's incomeFrom on, as `transactions` (only when the kind reads income further back). */
  incomeTransactions?: TransactionRecord[];
}

/** The customer a report is about. */
export interface ReportCustomer {
  id: number;
  partnerId: string;
  /** "active" or "testing". */
  type: string;
}

/** The period a report reads, in the customer's clock (epoch seconds, both inclusive). */
export interface ReportPeriod {
  from: number;
  to: number;
  /** Balances are read from this day on (at most `from`): averages over the last months need them whatever `from` is. */
  balancesFrom: number;
  /** Where a kind's income part starts when it reads further (or less far) back than its period: VOA with income. */
  incomeFrom?: number;
}

/** The statement a statement report holds, as the statements module finds it when the report is computed. */
export interface ReportStatement {
  accountId: number;
  /** Get Asset by Customer and ID's id of the statement. */
  assetId: string;
  start: number;
  end: number;
}

/** Everything a kind's compute reads: no database, no clock. */
export interface ReportInput {
  customer: ReportCustomer;
  consumer: ConsumerRecord;
  /** The customer's clock when the report was computed (epoch seconds). */
  asOf: number;
  period: ReportPeriod;
  /** The accounts asked for (or all) whose type the kind accepts, in the customer's account order. */
  accounts: ReportAccountInput[];
  /** A statement report's statement. */
  statement?: ReportStatement;
}

type TimeIntervalTypeName = Static<typeof TimeIntervalType>;

/** What the partner asked for, as stored with the report: the request body and query, account ids split. */
export interface ReportOptions {
  accountIds?: string[];
  fromDate?: number;
  toDate?: number;
  showNsf?: boolean;
  reportCustomFields?: Static<typeof ReportCustomField>[];
  includePending?: boolean;
  incomeFromDate?: number;
  incomeStreamConfidenceMinimum?: number;
  findTransaction?: Static<typeof FindTransaction>;
  /** The analytics reports' attribute periods. */
  timeIntervalTypes?: TimeIntervalTypeName[];
  /** A statement report's account and statement index. */
  statementReportData?: { accountId: number; statementIndex: number };
}

/** Which accounts and transactions to read. */
export interface InputSelection {
  /** Account ids asked for; all the customer's accounts when absent. */
  accountIds?: readonly string[] | undefined;
  /** The account types the kind accepts ('all': any). */
  accepts: ReadonlySet<string> | 'all';
  /** Pending transactions are left out unless asked for. */
  includePending: boolean;
}

/** The customer's accounts a report with this selection would cover (no transactions or balances read). */
export async function selectReportAccounts(db: Executor, customer: Pick<CustomerRow, 'id' | 'partner_id'>, selection: InputSelection) {
  const wanted = selection.accountIds ? new Set(selection.accountIds) : undefined;
  const rows = await selectCustomerAccounts(db, customer, {});
  return rows.filter((row) => (selection.accepts === 'all' || selection.accepts.has(row.type)) && (!wanted || wanted.has(String(row.id))));
}

function inPostedOrder(rows: readonly TransactionRecordRow[]): TransactionRecord[] {
  return rows.map(toTransactionRecord).sort((a, b) => a.postedDate - b.postedDate || a.id - b.id);
}

/** Reads the input of a report: the accounts of the selection, their transactions in the period and their daily balances. */
export async function loadReportInput(
  db: Executor,
  customer: Pick<CustomerRow, 'id' | 'partner_id' | 'type'>,
  consumer: ConsumerRecord,
  asOf: number,
  period: ReportPeriod,
  selection: InputSelection,
): Promise<ReportInput> {
  const rows = await selectReportAccounts(db, customer, selection);
  const ids = rows.map((r) => r.id);
  const positions = await positionsOfAccounts(db, ids);
  const institutions = await selectInstitutionsNamed(db, [...new Set(rows.map((r) => Number(r.institution_id)))]);
  const accounts: ReportAccountInput[] = [];
  for (const row of rows) {
    const institution = institutions.get(Number(row.institution_id));
    const transactions = await selectReportTransactions(db, row.id, period.from, period.to, selection.includePending);
    const balances = await selectBalances(db, row.id, dayText(period.balancesFrom), dayText(period.to));
    const income = period.incomeFrom === undefined ? undefined : await selectReportTransactions(db, row.id, period.incomeFrom, period.to, false);
    accounts.push({
      account: toAccountRecord(row, positions.get(row.id) ?? []),
      institutionName: institution?.name ?? `Institution ${row.institution_id}`,
      institutionUrl: institution?.url ?? '',
      transactions: inPostedOrder(transactions),
      balances: balances.map((b) => ({ day: b.day, balance: b.balance, availableBalance: b.available_balance })),
      ...(income ? { incomeTransactions: inPostedOrder(income) } : {}),
    });
  }
  return { customer: { id: Number(customer.id), partnerId: customer.partner_id, type: customer.type }, consumer, asOf, period, accounts };
}
