/**
 * Transactions: storing what the institution reports (new ones inserted, changed ones modified, vanished pending
 * ones deleted, each with its event), and the paged, date-filtered lists of the API.
 */
import type { ConnectorTransaction } from '../../connectors/connector.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Executor } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import { getCustomerForPartner } from '../customers/service.js';
import type { CustomerRow } from '../customers/table.js';
import { aggregationProgress } from './accounts.repository.js';
import { getAccountRow, parseId } from './accounts.service.js';
import { toTransactionEventRecord, toTransactionRecord, type AggregationEvent, type TransactionListRecord, type TransactionRecord } from './records.js';
import type { AccountRow, LedgerColumns, NewTransactionRow, TransactionRow, TransactionTable } from './table.js';
import { keptTransactions, settlePending } from './pending.service.js';
import * as repo from './transactions.repository.js';
import type { TransactionScope } from './transactions.repository.js';

/** The columns an institution's transaction sets; a change in any of them is a modification. */
type TransactionDataColumns = Omit<
  TransactionTable,
  'id' | 'partner_id' | 'customer_id' | 'account_id' | 'ref' | 'created_at' | 'updated_at' | LedgerColumns | SourceColumns
>;

/** Set once, when a source stores the transaction (dedup.service.ts): a later sync never changes them. */
type SourceColumns = 'source' | 'institution_transaction_id';

function transactionData(t: ConnectorTransaction): TransactionDataColumns {
  return {
    effective_date: t.transactionDate ?? t.postedDate!,
    status: t.status,
    amount: t.amount,
    description: t.description,
    memo: t.memo ?? null,
    type: t.type,
    transaction_date: t.transactionDate ?? null,
    posted_date: t.postedDate ?? null,
    check_num: t.checkNum ?? null,
    normalized_payee_name: t.categorization.normalizedPayeeName,
    category: t.categorization.category,
    best_representation: t.categorization.bestRepresentation,
    country: t.categorization.country,
    bonus_amount: t.bonusAmount ?? null,
    escrow_amount: t.escrowAmount ?? null,
    fee_amount: t.feeAmount ?? null,
    interest_amount: t.interestAmount ?? null,
    principal_amount: t.principalAmount ?? null,
    unit_quantity: t.unitQuantity ?? null,
    unit_value: t.unitValue ?? null,
    investment_transaction_type: t.investmentTransactionType ?? null,
    ticker: t.ticker ?? null,
    security_id: t.securityId ?? null,
  };
}

const DATA_KEYS = Object.keys(
  transactionData({
    ref: '',
    accountRef: '',
    amount: 0,
    status: 'active',
    description: '',
    type: 'other',
    transactionDate: 0,
    categorization: { normalizedPayeeName: '', category: 'Uncategorized', bestRepresentation: '', country: '' },
  }),
) as (keyof TransactionDataColumns)[];

function differs(row: TransactionRow, data: TransactionDataColumns): boolean {
  return DATA_KEYS.some((k) => {
    const stored = row[k];
    const next = data[k];
    // bigint columns may come back as numbers or numeric strings depending on the driver.
    return typeof next === 'number' && stored !== null ? Number(stored) !== next : stored !== next;
  });
}

/** Rows per INSERT statement (keeps SQLite under its bound-parameter limit). */
const BATCH = 400;

export interface TransactionSyncResult {
  created: number;
  modified: number;
  deleted: number;
  events: AggregationEvent[];
}

/**
 * Makes the stored transactions of an account dated in [from, to] agree with what the institution reported for
 * that window: new refs are inserted, changed ones updated, stored pending ones the institution no longer shows
 * are deleted (unless `part`: the fetched records are only part of the window's, as for a file stored in slices;
 * then only their own refs are compared).
 * Posted transactions are never deleted by a refresh. Runs inside the caller's transaction; the unique (account,
 * ref) constraint means a record cannot be stored twice, whatever runs concurrently.
 */
export async function syncTransactions(
  db: Executor,
  account: AccountRow,
  fetched: readonly ConnectorTransaction[],
  from: number,
  to: number,
  now: number,
  options: { part?: boolean; source?: string } = {},
): Promise<TransactionSyncResult> {
  const result: TransactionSyncResult = { created: 0, modified: 0, deleted: 0, events: [] };
  fetched = await keptTransactions(db, account, fetched, now);
  const scope = { partnerId: account.partner_id, customerId: Number(account.customer_id), accountId: account.id };
  const event = (type: AggregationEvent['type'], row: TransactionRow): AggregationEvent => ({
    class: 'transaction',
    type,
    ...scope,
    record: toTransactionEventRecord(row),
  });

  // Part of a window: what is stored under its own refs is all that matters (a window's rows would be read again
  // for every part, and a file's parts need not be in date order).
  const stored = options.part
    ? await repo.selectTransactionsWithRefs(
        db,
        account.id,
        fetched.map((t) => t.ref),
      )
    : await repo.selectTransactionsInWindow(db, account.id, from, to);
  const storedByRef = new Map(stored.map((r) => [r.ref, r]));
  const fetchedRefs = new Set<string>();

  const update = async (row: TransactionRow, data: TransactionDataColumns) => {
    if (!differs(row, data)) return;
    const updated = await repo.updateTransactionRow(db, row.id, { ...data, updated_at: now });
    result.modified++;
    result.events.push(event('modified', updated));
  };

  const fresh: { t: ConnectorTransaction; data: TransactionDataColumns }[] = [];
  for (const t of fetched) {
    if (fetchedRefs.has(t.ref)) continue;
    fetchedRefs.add(t.ref);
    const data = transactionData(t);
    const existing = storedByRef.get(t.ref);
    if (existing) await update(existing, data);
    else fresh.push({ t, data });
  }

  for (let i = 0; i < fresh.length; i += BATCH) {
    const chunk = fresh.slice(i, i + BATCH);
    const values: NewTransactionRow[] = chunk.map(({ t, data }) => ({
      partner_id: account.partner_id,
      customer_id: account.customer_id,
      account_id: account.id,
      ref: t.ref,
      ...data,
      source: options.source ?? null,
      institution_transaction_id: t.institutionTransactionId ?? null,
      created_at: now,
      updated_at: now,
    }));
    const inserted = await repo.insertNewTransactions(db, values);
    result.created += inserted.length;
    for (const row of inserted) result.events.push(event('created', row));
    if (inserted.length < chunk.length) {
      // Stored already, outside the window this refresh loaded (its date moved): compare and update instead.
      const done = new Set(inserted.map((r) => r.ref));
      const rest = chunk.filter(({ t }) => !done.has(t.ref));
      const rows = await repo.selectTransactionsWithRefs(
        db,
        account.id,
        rest.map(({ t }) => t.ref),
      );
      const byRef = new Map(rows.map((r) => [r.ref, r]));
      for (const { t, data } of rest) {
        const row = byRef.get(t.ref);
        if (row) await update(row, data);
      }
    }
  }

  // Pending transactions the new posted ones replaced, and those that never posted in time (pending.service.ts).
  const settled = await settlePending(db, account, result, fetchedRefs, now);
  // Another source's pending transactions in the same account (dedup.service.ts) are that source's to remove.
  const ownSource = (r: TransactionRow) => options.source === undefined || r.source === null || r.source === options.source;
  const vanished = options.part ? [] : stored.filter((r) => r.status === 'pending' && !fetchedRefs.has(r.ref) && ownSource(r) && !settled.has(Number(r.id)));
  if (vanished.length > 0) {
    await repo.deleteTransactions(
      db,
      vanished.map((r) => r.id),
    );
    result.deleted += vanished.length;
    for (const row of vanished) result.events.push(event('deleted', { ...row, updated_at: now }));
  }
  return result;
}

/** A transaction list query, with the API's defaults applied. */
export interface TransactionQuery {
  fromDate: number;
  toDate: number;
  /** 1-based index of the first record. */
  start: number;
  limit: number;
  sort: 'asc' | 'desc';
  includePending: boolean;
}

function checkQuery(q: TransactionQuery): void {
  if (q.fromDate > q.toDate)
    throw new ServiceError('InvalidParameter', `Invalid parameter (fromDate): fromDate (${q.fromDate}) must not be after toDate (${q.toDate}).`);
}

/**
 * One page of transactions of a customer or an account, dated (see effective_date) in [fromDate, toDate], ordered
 * by date then id in the asked direction, with how many there are in all.
 */
async function page(db: Executor, scope: TransactionScope, q: TransactionQuery): Promise<TransactionListRecord> {
  checkQuery(q);
  const offset = q.start - 1;
  const { found, rows } = await repo.selectCountedTransactionPage(db, scope, q, offset);
  return {
    found,
    displaying: rows.length,
    moreAvailable: String(offset + rows.length < found),
    fromDate: String(q.fromDate),
    toDate: String(q.toDate),
    sort: q.sort,
    transactions: rows.map(toTransactionRecord),
  };
}

/**
 * Get All Customer Transactions. Transactions exist only for accounts that have been aggregated (linking stores
 * none, and an account's first_aggregated_at is set with its first transactions and never cleared), so the list
 * holds the aggregated accounts' transactions. When the customer has accounts and none of them has had its initial
 * aggregation yet, the answer is 409 InitialAggregationRequired rather than an empty list. A page that found
 * transactions proves an aggregated account, so only an empty one asks (one statement fewer per page).
 */
export async function listCustomerTransactions(runtime: Pick<Runtime, 'database'>, customer: CustomerRow, q: TransactionQuery): Promise<TransactionListRecord> {
  const db = runtime.database.kysely;
  const scope = { column: 'customer_id', id: customer.id } as const;
  const result = await page(db, scope, q);
  if (result.found > 0) return result;
  const state = await aggregationProgress(db, customer.id);
  if (Number(state.accounts) > 0 && Number(state.aggregated) === 0) {
    throw new ServiceError(
      'InitialAggregationRequired',
      "None of the customer's accounts has been aggregated yet: refresh the customer's accounts (POST /aggregation/v1/customers/{customerId}/accounts) before reading transactions.",
    );
  }
  // A first aggregation may have committed between the page and the check: the page again, read after the check.
  return page(db, scope, q);
}

function requireAggregated(account: AccountRow): void {
  if (account.first_aggregated_at === null) {
    throw new ServiceError(
      'InitialAggregationRequired',
      `Account ${account.id} has not been aggregated yet: refresh it (POST /aggregation/v1/customers/${account.customer_id}/accounts) before reading its transactions.`,
    );
  }
}

/** Get Customer Account Transactions: 409 InitialAggregationRequired before the account's first aggregation. */
export async function listAccountTransactions(
  runtime: Pick<Runtime, 'database'>,
  customer: CustomerRow,
  accountId: string,
  q: TransactionQuery,
): Promise<TransactionListRecord> {
  const db = runtime.database.kysely;
  const account = await getAccountRow(db, customer, accountId);
  requireAggregated(account);
  return page(db, { column: 'account_id', id: account.id }, q);
}

/** Get Customer Transaction: one of the partner's customer's transactions (404 for unknown ids and other customers'). */
export async function getCustomerTransaction(
  runtime: Pick<Runtime, 'database'>,
  partnerId: string,
  customerId: string | number,
  transactionId: string | number,
): Promise<TransactionRecord> {
  const db = runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const id = parseId(transactionId);
  const row = id === undefined ? undefined : await repo.findCustomerTransaction(db, customer, id);
  if (!row) throw new ServiceError('ResourceNotFound', 'Transaction not found.');
  return toTransactionRecord(row);
}

/**
 * Get Transaction by UniqueTransactionId: the reference's "globally unique" id is `accountId-transactionId`, the
 * account's id and the transaction's. The customer's transaction with that id, when it is of that account; 404 like
 * any unknown id otherwise, and 400 (10010) when the text is not two ids joined by a hyphen.
 */
export async function getCustomerTransactionByUniqueId(
  runtime: Pick<Runtime, 'database'>,
  partnerId: string,
  customerId: string | number,
  uniqueTransactionId: string,
): Promise<TransactionRecord> {
  const db = runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const parts = /^(\d+)-(\d+)$/.exec(uniqueTransactionId);
  if (!parts)
    throw new ServiceError(
      'InvalidParameter',
      'Invalid parameter (uniqueTransactionId): an account id and a transaction id joined by a hyphen, e.g. 5011648377-20000012345.',
    );
  const [accountId, id] = [parseId(parts[1]!), parseId(parts[2]!)];
  const row = accountId === undefined || id === undefined ? undefined : await repo.findCustomerTransaction(db, customer, id);
  if (!row || Number(row.account_id) !== accountId) throw new ServiceError('ResourceNotFound', 'Transaction not found.');
  return toTransactionRecord(row);
}
