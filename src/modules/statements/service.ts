/**
 * The Bank Statements operations (docs/statements.md): an account's statements made from what aggregation stored
 * (its posted transactions and its daily balance history) for the periods periods.rules.ts gives it, as PDF files;
 * the details of several of them with the asset ids to fetch them by; and the assets themselves: a statement (made
 * again from the stored data each time it is fetched) or a statement file as it was uploaded.
 */
import { shownDecimals } from '../../platform/currency.js';
import type { AccountOwnership } from '../../connectors/connector.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { CustomerAccountMultipleStatements } from '../../contract/schemas/bank-statements.js';
import { STATEMENT_FORMATS, type StatementFormatName } from '../../contract/schemas/statements.js';
import type { Executor } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import type { Static } from 'typebox';
import { getAccountRow, parseId } from '../aggregation/accounts.service.js';
import { dayText } from '../aggregation/balances.service.js';
import { customerNow } from '../aggregation/engine.js';
import { findStatementFile, selectStatementPeriods } from '../aggregation/statement-files.repository.js';
import { statementFileContent } from '../aggregation/statement-files.service.js';
import type { AccountRow } from '../aggregation/table.js';
import { getCustomerForPartner } from '../customers/service.js';
import type { CustomerRow } from '../customers/table.js';
import { findInstitution } from '../institutions/service.js';
import { parseStatementAssetId, parseStatementIndexes, type StatementPeriod, statementAssetId, statementPeriods } from './periods.rules.js';
import { findPayStatementFile, isPayStatementAssetId } from './pay-statements.service.js';
import { type StatementLine, usDate, writeStatementPdf } from './pdf.js';
import { latestBalanceBetween, selectStatementTransactions, statementTotals } from './repository.js';

/**
 * Most transactions one statement lists: a month of thousands of card payments is a hundred pages, made a page per
 * turn of the event loop. The summary still counts every transaction of the period; the document says it is cut.
 */
export const MAX_STATEMENT_TRANSACTIONS = 5000;

const DAY = 86_400;

/** A file to answer: its name and bytes. */
export interface StatementFile {
  filename: string;
  content: Buffer;
}

type Ctx = Pick<Runtime, 'database' | 'clock'>;

async function accountOf(runtime: Ctx, partnerId: string, customerId: string | number, accountId: string | number) {
  const db = runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  return { customer, account: await getAccountRow(db, customer, accountId) };
}

/** The account's statements, latest first. */
async function periodsOf(db: Executor, account: AccountRow, now: number): Promise<StatementPeriod[]> {
  const files = await selectStatementPeriods(db, account.id);
  const stored = (value: number | null) => (value === null ? null : Number(value));
  return statementPeriods(
    now,
    { oldest: stored(account.oldest_transaction_at), last: stored(account.last_transaction_at) },
    files.map((f) => ({ start: Number(f.period_start), end: Number(f.period_end), fileId: f.file_id })),
  );
}

/** The statement at an index, or 404 (16201) when the account has none there or it has no transactions. */
async function periodAt(db: Executor, account: AccountRow, periods: readonly StatementPeriod[], index: number): Promise<StatementPeriod> {
  const period = periods[index - 1];
  const totals = period && (await statementTotals(db, account.id, period.start, period.end));
  if (period === undefined || !totals || totals.credits.count + totals.debits.count === 0) {
    throw new ServiceError('StatementNotFound', `Statement not found: account ${account.id} has no statement with transactions at index ${index}.`);
  }
  return period;
}

/** The owner's name as the source wrote it, where it gave one. */
function ownerName(account: AccountRow): string | undefined {
  if (account.owners === null || account.owners === undefined) return undefined;
  const ownership = JSON.parse(account.owners) as AccountOwnership;
  return ownership.name || ownership.holders[0]?.name || undefined;
}

/** The statement of a period as a PDF file. */
async function statementPdf(runtime: Ctx, account: AccountRow, period: StatementPeriod, now: number): Promise<StatementFile> {
  const db = runtime.database.kysely;
  const totals = await statementTotals(db, account.id, period.start, period.end);
  const rows = await selectStatementTransactions(db, account.id, period.start, period.end, MAX_STATEMENT_TRANSACTIONS);
  // In the currency's minor units (cents; a KWD account's fils): sums of floating amounts drift.
  const unit = 10 ** shownDecimals(account.currency);
  const minor = (amount: number | string) => Math.round(Number(amount) * unit);
  const moved = minor(totals.credits.total) + minor(totals.debits.total);
  const balanceOn = async (day: string) => {
    const row = await latestBalanceBetween(db, account.id, day, day);
    return row === undefined ? undefined : minor(row.balance);
  };
  const storedOpening = await balanceOn(dayText(period.start - DAY));
  const storedClosing = await balanceOn(dayText(period.end));
  // Each from the other and the transactions where only one is known.
  const opening = storedOpening ?? (storedClosing === undefined ? undefined : storedClosing - moved);
  const closing = storedClosing ?? (opening === undefined ? undefined : opening + moved);
  let running = opening;
  const lines: StatementLine[] = rows.map((t) => {
    if (running !== undefined) running += minor(t.amount);
    const description = t.memo && t.memo !== t.description ? `${t.description} ${t.memo}` : t.description;
    return { date: Number(t.posted), description, amount: Number(t.amount), balance: running === undefined ? undefined : running / unit };
  });
  const other = opening !== undefined && closing !== undefined ? closing - opening - moved : 0;
  const institution = (await findInstitution(runtime.database, account.institution_id))?.name ?? `Institution ${account.institution_id}`;
  const content = await writeStatementPdf({
    institution,
    accountName: account.name,
    accountNumber: account.account_number_display,
    accountType: account.type,
    owner: ownerName(account),
    currency: account.currency,
    period,
    periodSource: period.fileId
      ? `The period of the uploaded statement file ${period.fileId} (Get Asset by Customer and ID answers the file itself). Made from the transactions and balances Ledgerlink stored for the account.`
      : 'A calendar month. Made from the transactions and balances Ledgerlink stored for the account.',
    ...(opening === undefined ? {} : { opening: opening / unit }),
    ...(closing === undefined ? {} : { closing: closing / unit }),
    credits: { count: totals.credits.count, total: minor(totals.credits.total) / unit },
    debits: { count: totals.debits.count, total: minor(totals.debits.total) / unit },
    ...(other !== 0 ? { otherChanges: other / unit } : {}),
    lines,
    total: totals.credits.count + totals.debits.count,
    generatedAt: Math.min(now, period.end),
  });
  return { filename: `${statementAssetId(account.id, period)}.pdf`, content };
}

/** Get Customer Account Statement: the statement at `index` (1 the latest) as a PDF file; 404 (16201) without one there. */
export async function getAccountStatement(
  runtime: Ctx,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
  index: number,
): Promise<StatementFile> {
  const { customer, account } = await accountOf(runtime, partnerId, customerId, accountId);
  const now = customerNow(runtime, customer);
  const db = runtime.database.kysely;
  const period = await periodAt(db, account, await periodsOf(db, account, now), index);
  return statementPdf(runtime, account, period, now);
}

/** A statement an account has: its asset id and period. */
export interface FoundStatement {
  assetId: string;
  period: StatementPeriod;
}

/**
 * The statement of one of the customer's accounts at an index, as Get Customer Account Statement would answer it
 * (the statement report holds it): undefined when the customer has no such account or the account no statement there.
 */
export async function findStatement(runtime: Ctx, customer: CustomerRow, accountId: number, index: number): Promise<FoundStatement | undefined> {
  const db = runtime.database.kysely;
  let account: AccountRow;
  try {
    account = await getAccountRow(db, customer, accountId);
  } catch (error) {
    if (error instanceof ServiceError) return undefined;
    throw error;
  }
  try {
    const period = await periodAt(db, account, await periodsOf(db, account, customerNow(runtime, customer)), index);
    return { assetId: statementAssetId(account.id, period), period };
  } catch (error) {
    if (error instanceof ServiceError) return undefined;
    throw error;
  }
}

type MultipleStatements = Static<typeof CustomerAccountMultipleStatements>;

/** Get Customer Account Multiple Statement Details: per index asked for, its statement's asset id and period, or why there is none. */
export async function listAccountStatements(
  runtime: Ctx,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
  indexList: string,
): Promise<MultipleStatements> {
  // Another partner's or customer's account is 404 whatever the indexes.
  const { customer, account } = await accountOf(runtime, partnerId, customerId, accountId);
  const indexes = parseStatementIndexes(indexList);
  if (indexes === undefined) {
    throw new ServiceError('InvalidParameter', `Invalid parameter (index): "${indexList}" is not a comma-separated list of indexes from 1 to 24.`);
  }
  const now = customerNow(runtime, customer);
  const db = runtime.database.kysely;
  const periods = await periodsOf(db, account, now);
  const statements: MultipleStatements['statements'] = [];
  for (const index of indexes) {
    try {
      const period = await periodAt(db, account, periods, index);
      statements.push({
        index: String(index),
        id: statementAssetId(account.id, period),
        asOfDate: now,
        description: `${usDate(period.start)} - ${usDate(period.end)}`,
        documentDate: dayText(period.end),
      });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      statements.push({ index: String(index), asOfDate: now, code: error.code, message: 'statement not found.' });
    }
  }
  return { statements };
}

/**
 * Get Asset by Customer and ID: a statement (made from the stored data as it is now), an uploaded statement file
 * as it came, or a stored pay statement; 404 (16202) for an id that names none of them for this customer.
 */
export async function getAsset(runtime: Ctx & Pick<Runtime, 'keys'>, partnerId: string, customerId: string | number, assetId: string): Promise<StatementFile> {
  const db = runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const notFound = () => new ServiceError('AssetNotFound', `Asset not found: customer ${customer.id} has no asset ${assetId}.`);
  if (isPayStatementAssetId(assetId)) {
    const file = await findPayStatementFile(runtime, { partnerId, customerId: customer.id }, assetId);
    if (!file) throw notFound();
    return file;
  }
  if (assetId.startsWith('file-')) {
    const file = await findStatementFile(db, { partnerId, customerId: customer.id }, assetId);
    if (!file) throw notFound();
    const extension = STATEMENT_FORMATS[file.format as StatementFormatName]?.extensions[0] ?? '';
    return { filename: `${file.id}${extension}`, content: await statementFileContent(db, file.id) };
  }
  const named = parseStatementAssetId(assetId);
  if (named === undefined || parseId(named.accountId) === undefined) throw notFound();
  const account = await getAccountRow(db, customer, named.accountId).catch(() => {
    throw notFound();
  });
  const now = customerNow(runtime, customer);
  const period = (await periodsOf(db, account, now)).find((p) => statementAssetId(account.id, p) === assetId);
  if (!period) throw notFound();
  return statementPdf(runtime, account, period, now);
}
