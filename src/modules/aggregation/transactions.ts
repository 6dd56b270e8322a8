/**
 * Transactions: storing what the institution reports (new ones inserted, changed ones modified, vanished pending
 * ones deleted, each with its event), the API's Transaction records, and the paged, date-filtered lists.
 */
import type { ConnectorTransaction } from '../../connectors/connector.js';
import type { Executor } from '../../platform/db/database.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { CustomerRow } from '../customers/table.js';
import { getAccountRow, parseId } from './accounts.js';
import type { AggregationEvent, TransactionEventRecord, TransactionRecord } from './records.js';
export type { Categorization, TransactionEventRecord, TransactionRecord } from './records.js';
import type { AccountRow, NewTransactionRow, TransactionRow, TransactionTable } from './table.js';

const opt = <K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } =>
  (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

export function toTransactionRecord(row: TransactionRow): TransactionRecord {
  return {
    id: Number(row.id),
    amount: row.amount,
    accountId: Number(row.account_id),
    customerId: Number(row.customer_id),
    status: row.status,
    description: row.description,
    ...opt('memo', row.memo),
    ...opt('type', row.type),
    ...opt('transactionDate', row.transaction_date === null ? null : Number(row.transaction_date)),
    // A pending transaction has not posted: it shows its transaction date until the institution posts it, as clients
    // written for the reference read postedDate on every transaction.
    postedDate: Number(row.posted_date ?? row.effective_date),
    createdDate: Number(row.created_at),
    ...opt('checkNum', row.check_num),
    ...(row.category !== null
      ? {
          categorization: {
            normalizedPayeeName: row.normalized_payee_name ?? '',
            category: row.category,
            bestRepresentation: row.best_representation ?? '',
            country: row.country ?? '',
          },
        }
      : {}),
    ...opt('investmentTransactionType', row.investment_transaction_type),
    ...opt('ticker', row.ticker),
    ...opt('securityId', row.security_id),
  };
}

export function toTransactionEventRecord(row: TransactionRow): TransactionEventRecord {
  return {
    ...toTransactionRecord(row),
    bonusAmount: row.bonus_amount ?? 0,
    escrowAmount: row.escrow_amount ?? 0,
    feeAmount: row.fee_amount ?? 0,
    interestAmount: row.interest_amount ?? 0,
    principalAmount: row.principal_amount ?? 0,
    unitQuantity: row.unit_quantity ?? 0,
    unitValue: row.unit_value ?? 0,
  };
}

/** The columns an institution's transaction sets; a change in any of them is a modification. */
type TransactionDataColumns = Omit<TransactionTable, 'id' | 'partner_id' | 'customer_id' | 'account_id' | 'ref' | 'created_at' | 'updated_at'>;

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
 * are deleted. Posted transactions are never deleted by a refresh. Runs inside the caller's transaction; the
 * unique (account, ref) constraint means a record cannot be stored twice, whatever runs concurrently.
 */
export async function syncTransactions(
  db: Executor,
  account: AccountRow,
  fetched: readonly ConnectorTransaction[],
  from: number,
  to: number,
  now: number,
): Promise<TransactionSyncResult> {
  const result: TransactionSyncResult = { created: 0, modified: 0, deleted: 0, events: [] };
  const scope = { partnerId: account.partner_id, customerId: Number(account.customer_id), accountId: account.id };
  const event = (type: AggregationEvent['type'], row: TransactionRow): AggregationEvent => ({
    class: 'transaction',
    type,
    ...scope,
    record: toTransactionEventRecord(row),
  });

  const stored = await db
    .selectFrom('transactions')
    .selectAll()
    .where('account_id', '=', account.id)
    .where('effective_date', '>=', from)
    .where('effective_date', '<=', to)
    .execute();
  const storedByRef = new Map(stored.map((r) => [r.ref, r]));
  const fetchedRefs = new Set<string>();

  const update = async (row: TransactionRow, data: TransactionDataColumns) => {
    if (!differs(row, data)) return;
    const updated = await db
      .updateTable('transactions')
      .set({ ...data, updated_at: now })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
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
      created_at: now,
      updated_at: now,
    }));
    const inserted = await db
      .insertInto('transactions')
      .values(values)
      .onConflict((oc) => oc.columns(['account_id', 'ref']).doNothing())
      .returningAll()
      .execute();
    result.created += inserted.length;
    for (const row of inserted) result.events.push(event('created', row));
    if (inserted.length < chunk.length) {
      // Stored already, outside the window this refresh loaded (its date moved): compare and update instead.
      const done = new Set(inserted.map((r) => r.ref));
      const rest = chunk.filter(({ t }) => !done.has(t.ref));
      const rows = await db
        .selectFrom('transactions')
        .selectAll()
        .where('account_id', '=', account.id)
        .where(
          'ref',
          'in',
          rest.map(({ t }) => t.ref),
        )
        .execute();
      const byRef = new Map(rows.map((r) => [r.ref, r]));
      for (const { t, data } of rest) {
        const row = byRef.get(t.ref);
        if (row) await update(row, data);
      }
    }
  }

  const vanished = stored.filter((r) => r.status === 'pending' && !fetchedRefs.has(r.ref));
  if (vanished.length > 0) {
    await db
      .deleteFrom('transactions')
      .where(
        'id',
        'in',
        vanished.map((r) => r.id),
      )
      .execute();
    result.deleted += vanished.length;
    for (const row of vanished) result.events.push(event('deleted', { ...row, updated_at: now }));
  }
  return result;
}

/** The oldest and newest transaction dates of an account (read from the account-date index). */
export async function transactionDateRange(db: Executor, accountId: number): Promise<{ oldest: number | null; last: number | null }> {
  const oldest = await db
    .selectFrom('transactions')
    .select('effective_date')
    .where('account_id', '=', accountId)
    .orderBy('effective_date', 'asc')
    .limit(1)
    .executeTakeFirst();
  const last = await db
    .selectFrom('transactions')
    .select('effective_date')
    .where('account_id', '=', accountId)
    .orderBy('effective_date', 'desc')
    .limit(1)
    .executeTakeFirst();
  return { oldest: oldest ? Number(oldest.effective_date) : null, last: last ? Number(last.effective_date) : null };
}

export interface TransactionQuery {
  fromDate: number;
  toDate: number;
  /** 1-based index of the first record. */
  start: number;
  limit: number;
  sort: 'asc' | 'desc';
  includePending: boolean;
}

export interface TransactionPage {
  found: number;
  displaying: number;
  moreAvailable: boolean;
  fromDate: number;
  toDate: number;
  sort: 'asc' | 'desc';
  transactions: TransactionRecord[];
}

function checkQuery(q: TransactionQuery): void {
  if (q.fromDate > q.toDate)
    throw new ServiceError('InvalidParameter', `Invalid parameter (fromDate): fromDate (${q.fromDate}) must not be after toDate (${q.toDate}).`);
}

/**
 * One page of transactions of a customer (scope column customer_id) or an account (account_id), dated (see
 * effective_date) in [fromDate, toDate], ordered by date then id in the asked direction. The ids of the page
 * come from the (scope, effective_date, id, status) index alone; only the page's rows are read from the table,
 * in the same statement (one round trip fewer on PostgreSQL).
 */
async function page(db: Executor, scope: { column: 'customer_id' | 'account_id'; id: number }, q: TransactionQuery): Promise<TransactionPage> {
  checkQuery(q);
  const filtered = () => {
    let s = db.selectFrom('transactions').where(scope.column, '=', scope.id).where('effective_date', '>=', q.fromDate).where('effective_date', '<=', q.toDate);
    if (!q.includePending) s = s.where('status', '=', 'active');
    return s;
  };
  const count = await filtered()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const found = Number(count.n);
  const offset = q.start - 1;
  let rows: TransactionRow[] = [];
  if (offset < found) {
    // One statement: the page's ids from the index (skipping `offset` entries there), then those rows only.
    const pageIds = filtered().select('id').orderBy('effective_date', q.sort).orderBy('id', q.sort).limit(q.limit).offset(offset);
    rows = await db.selectFrom('transactions').selectAll().where('id', 'in', pageIds).orderBy('effective_date', q.sort).orderBy('id', q.sort).execute();
  }
  return {
    found,
    displaying: rows.length,
    moreAvailable: offset + rows.length < found,
    fromDate: q.fromDate,
    toDate: q.toDate,
    sort: q.sort,
    transactions: rows.map(toTransactionRecord),
  };
}

/**
 * Get All Customer Transactions. Transactions exist only for accounts that have been aggregated (linking stores
 * none), so the list holds the aggregated accounts' transactions. When the customer has accounts and none of them
 * has had its initial aggregation yet, the answer is 409 InitialAggregationRequired rather than an empty list.
 */
export async function listCustomerTransactions(db: Executor, customer: CustomerRow, q: TransactionQuery): Promise<TransactionPage> {
  checkQuery(q);
  const state = await db
    .selectFrom('accounts')
    .select((eb) => [eb.fn.countAll<number>().as('accounts'), eb.fn.count<number>('first_aggregated_at').as('aggregated')])
    .where('customer_id', '=', customer.id)
    .executeTakeFirstOrThrow();
  if (Number(state.accounts) > 0 && Number(state.aggregated) === 0) {
    throw new ServiceError(
      'InitialAggregationRequired',
      "None of the customer's accounts has been aggregated yet: refresh the customer's accounts (POST /aggregation/v1/customers/{customerId}/accounts) before reading transactions.",
    );
  }
  return page(db, { column: 'customer_id', id: customer.id }, q);
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
export async function listAccountTransactions(db: Executor, customer: CustomerRow, accountId: string, q: TransactionQuery): Promise<TransactionPage> {
  const account = await getAccountRow(db, customer, accountId);
  requireAggregated(account);
  return page(db, { column: 'account_id', id: account.id }, q);
}

/** Get Customer Transaction: one of the customer's transactions (404 for unknown ids and other customers'). */
export async function getTransaction(db: Executor, customer: CustomerRow, transactionId: string | number): Promise<TransactionRecord> {
  const id = parseId(transactionId);
  const row =
    id === undefined
      ? undefined
      : await db
          .selectFrom('transactions')
          .selectAll()
          .where('id', '=', id)
          .where('customer_id', '=', customer.id)
          .where('partner_id', '=', customer.partner_id)
          .executeTakeFirst();
  if (!row) throw new ServiceError('ResourceNotFound', 'Transaction not found.');
  return toTransactionRecord(row);
}
