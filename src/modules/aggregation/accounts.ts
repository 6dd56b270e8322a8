/**
 * Accounts: the API's Account records, built from stored rows, and the reads and deletions of the accounts API.
 * Every read is scoped to the calling partner's customer: another partner's or customer's ids are unknown ids.
 */
import type { ConnectorAccount, ConnectorPosition } from '../../connectors/connector.js';
import type { Executor } from '../../platform/db/database.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { getCustomerForPartner, parseCustomerId } from '../customers/service.js';
import type { CustomerRow } from '../customers/table.js';
import { customerNow, type Engine } from './engine.js';
import { recordEvents } from './events.js';
import type { AccountRecord, AggregationEvent, PositionRecord } from './records.js';
export type { AccountRecord, PositionRecord } from './records.js';
import { MAX_STORED_INSTITUTION_ID } from '../institutions/table.js';
import type { AccountRow, AccountTable, InstitutionLoginRow, PositionRow } from './table.js';

/** The lighter record of the `simple` account routes (CustomerAccountSimple). */
export interface AccountSimpleRecord {
  id: string;
  accountNumberDisplay: string;
  name: string;
  type: string;
  aggregationStatusCode: number;
  status: string;
  customerId: string;
  institutionId: string;
  aggregationSuccessDate?: number;
  aggregationAttemptDate?: number;
  createdDate: number;
  currency: string;
  institutionLoginId: number;
  displayPosition: number;
}

const INVESTMENT_TYPES = new Set(['investment', 'investmentTaxDeferred', 'roth']);

const opt = <K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } =>
  (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

export function toPositionRecord(row: PositionRow): PositionRecord {
  return { id: row.id, ...(JSON.parse(row.record) as Omit<ConnectorPosition, 'ref'>) };
}

export function toAccountRecord(row: AccountRow, positions: readonly PositionRow[] = []): AccountRecord {
  return {
    id: String(row.id),
    number: row.number,
    ...opt('realAccountNumberLast4', row.real_account_number_last4),
    accountNumberDisplay: row.account_number_display,
    name: row.name,
    accountNickname: row.account_nickname,
    balance: row.balance,
    type: row.type,
    status: row.status,
    aggregationStatusCode: row.aggregation_status_code,
    customerId: String(row.customer_id),
    institutionId: String(row.institution_id),
    institutionLoginId: Number(row.institution_login_id),
    currency: row.currency,
    balanceDate: Number(row.balance_date),
    ...opt('aggregationSuccessDate', row.aggregation_success_at),
    ...opt('aggregationAttemptDate', row.aggregation_attempt_at),
    createdDate: Number(row.created_at),
    lastUpdatedDate: Number(row.updated_at),
    ...opt('lastTransactionDate', row.last_transaction_at),
    ...opt('oldestTransactionDate', row.oldest_transaction_at),
    displayPosition: row.display_position,
    financialinstitutionAccountStatus: row.fi_account_status,
    marketSegment: row.market_segment,
    ...(row.detail !== null ? { detail: JSON.parse(row.detail) as Record<string, unknown> } : {}),
    ...(INVESTMENT_TYPES.has(row.type) ? { position: positions.map(toPositionRecord) } : {}),
  };
}

export function toAccountSimpleRecord(row: AccountRow): AccountSimpleRecord {
  return {
    id: String(row.id),
    accountNumberDisplay: row.account_number_display,
    name: row.name,
    type: row.type,
    aggregationStatusCode: row.aggregation_status_code,
    status: row.status,
    customerId: String(row.customer_id),
    institutionId: String(row.institution_id),
    ...opt('aggregationSuccessDate', row.aggregation_success_at),
    ...opt('aggregationAttemptDate', row.aggregation_attempt_at),
    createdDate: Number(row.created_at),
    currency: row.currency,
    institutionLoginId: Number(row.institution_login_id),
    displayPosition: row.display_position,
  };
}

/** The columns an institution's account record sets (balanceDate apart, a change in any is a modification). */
type AccountDataColumns = Pick<
  AccountTable,
  | 'number'
  | 'account_number_display'
  | 'real_account_number_last4'
  | 'name'
  | 'account_nickname'
  | 'type'
  | 'status'
  | 'currency'
  | 'balance'
  | 'market_segment'
  | 'display_position'
  | 'fi_account_status'
  | 'detail'
>;

function accountData(a: ConnectorAccount): AccountDataColumns {
  return {
    number: a.number,
    account_number_display: a.accountNumberDisplay,
    real_account_number_last4: a.realAccountNumberLast4 ?? null,
    name: a.name,
    account_nickname: a.accountNickname,
    type: a.type,
    status: a.status,
    currency: a.currency,
    balance: a.balance,
    market_segment: a.marketSegment,
    display_position: a.displayPosition,
    fi_account_status: a.financialinstitutionAccountStatus,
    detail: 'detail' in a ? JSON.stringify(a.detail) : null,
  };
}

function positionsOf(a: ConnectorAccount): ConnectorPosition[] {
  return a.type === 'investment' || a.type === 'investmentTaxDeferred' || a.type === 'roth' ? a.position : [];
}

function positionJson(p: ConnectorPosition): string {
  const { ref: _ref, ...rest } = p;
  return JSON.stringify(rest);
}

/** Makes the stored positions of an account those of the institution's record; true when anything changed. */
async function syncPositions(db: Executor, accountId: number, positions: readonly ConnectorPosition[]): Promise<boolean> {
  const stored = await db.selectFrom('positions').selectAll().where('account_id', '=', accountId).execute();
  const byRef = new Map(stored.map((p) => [p.ref, p]));
  let changed = false;
  for (const p of positions) {
    const record = positionJson(p);
    const existing = byRef.get(p.ref);
    byRef.delete(p.ref);
    if (!existing) {
      await db.insertInto('positions').values({ account_id: accountId, ref: p.ref, record }).execute();
      changed = true;
    } else if (existing.record !== record) {
      await db.updateTable('positions').set({ record }).where('id', '=', existing.id).execute();
      changed = true;
    }
  }
  const gone = [...byRef.values()].map((p) => p.id);
  if (gone.length > 0) {
    await db.deleteFrom('positions').where('id', 'in', gone).execute();
    changed = true;
  }
  return changed;
}

export async function positionsFor(db: Executor, accountIds: readonly number[]): Promise<Map<number, PositionRow[]>> {
  const out = new Map<number, PositionRow[]>();
  if (accountIds.length === 0) return out;
  const rows = await db
    .selectFrom('positions')
    .selectAll()
    .where('account_id', 'in', [...accountIds])
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = out.get(Number(row.account_id)) ?? [];
    list.push(row);
    out.set(Number(row.account_id), list);
  }
  return out;
}

/** Account rows as API records, with their positions (one query for all). */
export async function accountRecords(db: Executor, rows: readonly AccountRow[]): Promise<AccountRecord[]> {
  const positions = await positionsFor(
    db,
    rows.filter((r) => INVESTMENT_TYPES.has(r.type)).map((r) => r.id),
  );
  return rows.map((r) => toAccountRecord(r, positions.get(r.id) ?? []));
}

export async function accountRecord(db: Executor, row: AccountRow): Promise<AccountRecord> {
  return (await accountRecords(db, [row]))[0]!;
}

/** Creates an account under a login from the institution's record, with its positions. */
export async function insertAccount(db: Executor, login: InstitutionLoginRow, a: ConnectorAccount, now: number): Promise<AccountRow> {
  const row = await db
    .insertInto('accounts')
    .values({
      partner_id: login.partner_id,
      customer_id: login.customer_id,
      institution_login_id: login.id,
      institution_id: login.institution_id,
      ref: a.ref,
      ...accountData(a),
      balance_date: a.balanceDate,
      aggregation_status_code: 0,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await syncPositions(db, row.id, positionsOf(a));
  return row;
}

/**
 * Brings a stored account up to the institution's record (balances, detail, positions, names). Returns the new
 * row and whether its data changed (a new balanceDate alone is not a change).
 */
export async function updateAccountData(db: Executor, row: AccountRow, a: ConnectorAccount, now: number): Promise<{ row: AccountRow; changed: boolean }> {
  const data = accountData(a);
  const dataChanged = (Object.keys(data) as (keyof AccountDataColumns)[]).some((k) => data[k] !== row[k]);
  const positionsChanged = await syncPositions(db, row.id, positionsOf(a));
  const changed = dataChanged || positionsChanged;
  const updated = await db
    .updateTable('accounts')
    .set({ ...data, balance_date: a.balanceDate, ...(changed ? { updated_at: now } : {}) })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row: updated, changed };
}

/** Ids in paths are numeric strings; anything else names nothing. */
export function parseId(value: string | number): number | undefined {
  return parseCustomerId(value);
}

export interface AccountFilter {
  institutionLoginId?: number;
  institutionId?: number;
  status?: string;
  type?: string;
}

/** The customer's accounts in a stable order (institution login, then the institution's display order). */
export async function listAccountRows(db: Executor, customer: CustomerRow, filter: AccountFilter = {}): Promise<AccountRow[]> {
  // Catalogue ids fit the 32-bit column; a larger (64-bit, as the reference allows) id names no institution here.
  if (filter.institutionId !== undefined && filter.institutionId > MAX_STORED_INSTITUTION_ID) return [];
  let q = db.selectFrom('accounts').selectAll().where('customer_id', '=', customer.id).where('partner_id', '=', customer.partner_id);
  if (filter.institutionLoginId !== undefined) q = q.where('institution_login_id', '=', filter.institutionLoginId);
  if (filter.institutionId !== undefined) q = q.where('institution_id', '=', filter.institutionId);
  if (filter.status !== undefined) q = q.where('status', '=', filter.status);
  if (filter.type !== undefined) q = q.where('type', '=', filter.type);
  return q.orderBy('institution_login_id').orderBy('display_position').orderBy('id').execute();
}

/** One of the customer's accounts; 404 for unknown ids, malformed ids and other customers' accounts alike. */
export async function getAccountRow(db: Executor, customer: CustomerRow, accountId: string | number): Promise<AccountRow> {
  const id = parseId(accountId);
  const row =
    id === undefined
      ? undefined
      : await db
          .selectFrom('accounts')
          .selectAll()
          .where('id', '=', id)
          .where('customer_id', '=', customer.id)
          .where('partner_id', '=', customer.partner_id)
          .executeTakeFirst();
  if (!row) throw new ServiceError('ResourceNotFound', 'Account not found.');
  return row;
}

/** One of the customer's institution logins; 404 like getAccountRow. */
export async function getLoginRow(db: Executor, customer: CustomerRow, institutionLoginId: string | number): Promise<InstitutionLoginRow> {
  const id = parseId(institutionLoginId);
  const row =
    id === undefined
      ? undefined
      : await db
          .selectFrom('institution_logins')
          .selectAll()
          .where('id', '=', id)
          .where('customer_id', '=', customer.id)
          .where('partner_id', '=', customer.partner_id)
          .executeTakeFirst();
  if (!row) throw new ServiceError('ResourceNotFound', 'Institution login not found.');
  return row;
}

/** Deletes accounts (their transactions and positions go with them) and records a `deleted` event for each. */
export async function deleteAccountRows(engine: Engine, db: Executor, customer: CustomerRow, rows: readonly AccountRow[]): Promise<void> {
  if (rows.length === 0) return;
  const records = await accountRecords(db, rows);
  const now = customerNow(engine, customer);
  await db
    .deleteFrom('accounts')
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  const events: AggregationEvent[] = records.map((record, i) => ({
    class: 'account',
    type: 'deleted',
    partnerId: customer.partner_id,
    customerId: customer.id,
    accountId: rows[i]!.id,
    record: { ...record, lastUpdatedDate: now },
  }));
  await recordEvents(db, engine, events);
}

/**
 * Deletes one account of the customer (204; 404 when unknown). When it was the last account of its institution
 * login, the login goes too: a login without accounts has nothing to show or refresh.
 */
export async function deleteAccount(
  engine: Engine,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
  within?: (tx: Executor, deleted: { accountId: string; institutionLoginId: number; loginDeleted: boolean }) => Promise<void>,
): Promise<void> {
  await engine.runtime.database.kysely.transaction().execute(async (tx) => {
    const customer = await getCustomerForPartner(tx, partnerId, customerId);
    const row = await getAccountRow(tx, customer, accountId);
    await deleteAccountRows(engine, tx, customer, [row]);
    const left = await tx.selectFrom('accounts').select('id').where('institution_login_id', '=', row.institution_login_id).executeTakeFirst();
    if (!left) await tx.deleteFrom('institution_logins').where('id', '=', row.institution_login_id).execute();
    // Callers (Connect) add what must commit with the deletion, such as its webhook.
    if (within) await within(tx, { accountId: String(row.id), institutionLoginId: Number(row.institution_login_id), loginDeleted: !left });
  });
}

/** Deletes an institution login with all its accounts (204; 404 when unknown). */
export async function deleteInstitutionLogin(
  engine: Engine,
  partnerId: string,
  customerId: string | number,
  institutionLoginId: string | number,
  within?: (tx: Executor, deleted: { institutionLoginId: number; accountIds: string[] }) => Promise<void>,
): Promise<void> {
  await engine.runtime.database.kysely.transaction().execute(async (tx) => {
    const customer = await getCustomerForPartner(tx, partnerId, customerId);
    const login = await getLoginRow(tx, customer, institutionLoginId);
    const rows = await listAccountRows(tx, customer, { institutionLoginId: login.id });
    await deleteAccountRows(engine, tx, customer, rows);
    await tx.deleteFrom('institution_logins').where('id', '=', login.id).execute();
    if (within) await within(tx, { institutionLoginId: Number(login.id), accountIds: rows.map((r) => String(r.id)) });
  });
}
