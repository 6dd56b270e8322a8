/**
 * Accounts: storing what the institution reports about them (with their positions), their API records, and the
 * reads and deletions of the accounts API. Every read is scoped to the calling partner's customer: another
 * partner's or customer's ids are unknown ids.
 */
import type { ConnectorAccount, ConnectorPosition } from '../../connectors/connector.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Executor } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import { getCustomerForPartner, parseCustomerId } from '../customers/service.js';
import type { CustomerRow } from '../customers/table.js';
import { MAX_STORED_INSTITUTION_ID } from '../institutions/table.js';
import * as repo from './accounts.repository.js';
import type { AccountFilter } from './accounts.repository.js';
import { customerNow, type Engine } from './engine.js';
import { recordEvents } from './events.service.js';
import { deleteLogin, findCustomerLogin } from './logins.repository.js';
import { hasPositions, toAccountRecord, toAccountSimpleRecord, type AccountRecord, type AccountSimpleRecord, type AggregationEvent } from './records.js';
import type { AccountRow, AccountTable, InstitutionLoginRow } from './table.js';

/** Ids in paths are numeric strings; anything else names nothing. */
export function parseId(value: string | number): number | undefined {
  return parseCustomerId(value);
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
> & { authorization_start_at: number | null; authorization_end_at: number | null; authorization_expiring: number };

/** How long before a consent ends the account says so (authorizationExpiring), which notifies its subscribers. */
export const CONSENT_WARNING_SECONDS = 7 * 86_400;

function accountData(a: ConnectorAccount, now: number): AccountDataColumns {
  const end = a.authorization?.endDate;
  return {
    authorization_start_at: a.authorization?.startDate ?? null,
    authorization_end_at: end ?? null,
    authorization_expiring: end !== undefined && end - now <= CONSENT_WARNING_SECONDS ? 1 : 0,
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
    detail: detailOf(a),
  };
}

/** The stored detail object: the type's fields, and the holding institution's name where the source gives one. */
function detailOf(a: ConnectorAccount): string | null {
  const named = a.institutionName ? { institutionName: a.institutionName } : {};
  if ('detail' in a) return JSON.stringify({ ...a.detail, ...named });
  return a.institutionName ? JSON.stringify(named) : null;
}

/**
 * What the payment and identity products read of an account (modules/payments), stored beside its record: not part
 * of it, so a change is no modification of the account. A source that gives none keeps what another source gave.
 */
function productData(a: ConnectorAccount): { routing_number?: string; owners?: string; loan_payment?: string } {
  return {
    ...(a.routingNumber ? { routing_number: a.routingNumber } : {}),
    ...(a.ownership ? { owners: JSON.stringify(a.ownership) } : {}),
    ...('payment' in a && a.payment ? { loan_payment: JSON.stringify(a.payment) } : {}),
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
  const stored = await repo.selectPositions(db, accountId);
  const byRef = new Map(stored.map((p) => [p.ref, p]));
  let changed = false;
  for (const p of positions) {
    const record = positionJson(p);
    const existing = byRef.get(p.ref);
    byRef.delete(p.ref);
    if (!existing) {
      await repo.insertPosition(db, accountId, p.ref, record);
      changed = true;
    } else if (existing.record !== record) {
      await repo.updatePosition(db, existing.id, record);
      changed = true;
    }
  }
  const gone = [...byRef.values()].map((p) => p.id);
  if (gone.length > 0) {
    await repo.deletePositions(db, gone);
    changed = true;
  }
  return changed;
}

/** Account rows as API records, with their positions (one query for all). */
export async function accountRecords(db: Executor, rows: readonly AccountRow[]): Promise<AccountRecord[]> {
  const positions = await repo.positionsOfAccounts(
    db,
    rows.filter((r) => hasPositions(r.type)).map((r) => r.id),
  );
  return rows.map((r) => toAccountRecord(r, positions.get(r.id) ?? []));
}

export async function accountRecord(db: Executor, row: AccountRow): Promise<AccountRecord> {
  return (await accountRecords(db, [row]))[0]!;
}

/** Creates an account under a login from the institution's record, with its positions. */
export async function insertAccount(db: Executor, login: InstitutionLoginRow, a: ConnectorAccount, now: number): Promise<AccountRow> {
  const row = await repo.insertAccountRow(db, {
    partner_id: login.partner_id,
    customer_id: login.customer_id,
    institution_login_id: login.id,
    institution_id: login.institution_id,
    ref: a.ref,
    ...accountData(a, now),
    ...productData(a),
    balance_date: a.balanceDate,
    aggregation_status_code: 0,
    created_at: now,
    updated_at: now,
  });
  await syncPositions(db, row.id, positionsOf(a));
  return row;
}

/**
 * Brings a stored account up to the institution's record (balances, detail, positions, names). Returns the new
 * row and whether its data changed (a new balanceDate alone is not a change).
 */
export async function updateAccountData(db: Executor, row: AccountRow, a: ConnectorAccount, now: number): Promise<{ row: AccountRow; changed: boolean }> {
  const data = accountData(a, now);
  const dataChanged = (Object.keys(data) as (keyof AccountDataColumns)[]).some(
    (k) => data[k] !== (row[k] === null ? null : typeof data[k] === 'number' ? Number(row[k]) : row[k]),
  );
  const positionsChanged = await syncPositions(db, row.id, positionsOf(a));
  const changed = dataChanged || positionsChanged;
  const updated = await repo.updateAccountRow(db, row.id, { ...data, ...productData(a), balance_date: a.balanceDate, ...(changed ? { updated_at: now } : {}) });
  return { row: updated, changed };
}

/** The customer's accounts in a stable order (institution login, then the institution's display order). */
export async function listAccountRows(db: Executor, customer: CustomerRow, filter: AccountFilter = {}): Promise<AccountRow[]> {
  // Catalogue ids fit the 32-bit column; a larger (64-bit, as the reference allows) id names no institution here.
  if (filter.institutionId !== undefined && filter.institutionId > MAX_STORED_INSTITUTION_ID) return [];
  return repo.selectCustomerAccounts(db, customer, filter);
}

/** One of the customer's accounts; 404 for unknown ids, malformed ids and other customers' accounts alike. */
export async function getAccountRow(db: Executor, customer: CustomerRow, accountId: string | number): Promise<AccountRow> {
  const id = parseId(accountId);
  const row = id === undefined ? undefined : await repo.findCustomerAccount(db, customer, id);
  if (!row) throw new ServiceError('ResourceNotFound', 'Account not found.');
  return row;
}

/** One of the customer's institution logins; 404 like getAccountRow. */
export async function getLoginRow(db: Executor, customer: CustomerRow, institutionLoginId: string | number): Promise<InstitutionLoginRow> {
  const id = parseId(institutionLoginId);
  const row = id === undefined ? undefined : await findCustomerLogin(db, customer, id);
  if (!row) throw new ServiceError('ResourceNotFound', 'Institution login not found.');
  return row;
}

/**
 * Which of a customer's accounts an API list shows: those of one institution login, by the id in the path (404 when
 * the customer has no such login), or those the filter keeps.
 */
export type AccountListQuery = { institutionLoginId: string } | (Omit<AccountFilter, 'institutionLoginId'> & { institutionLoginId?: undefined });

/** The accounts an API list shows, as rows. */
async function listCustomerAccountRows(runtime: Pick<Runtime, 'database'>, customer: CustomerRow, query: AccountListQuery): Promise<AccountRow[]> {
  const db = runtime.database.kysely;
  const filter = query.institutionLoginId === undefined ? query : { institutionLoginId: (await getLoginRow(db, customer, query.institutionLoginId)).id };
  return listAccountRows(db, customer, filter);
}

/** The accounts an API list shows, as records. */
export async function listCustomerAccounts(runtime: Pick<Runtime, 'database'>, customer: CustomerRow, query: AccountListQuery): Promise<AccountRecord[]> {
  return accountRecords(runtime.database.kysely, await listCustomerAccountRows(runtime, customer, query));
}

/** The accounts an API list shows, as simple records (no positions, nothing else to read). */
export async function listCustomerAccountsSimple(
  runtime: Pick<Runtime, 'database'>,
  customer: CustomerRow,
  query: AccountListQuery,
): Promise<AccountSimpleRecord[]> {
  return (await listCustomerAccountRows(runtime, customer, query)).map(toAccountSimpleRecord);
}

/** Get Customer Account: one account of the partner's customer as a row (404 for unknown customers and accounts). */
export async function getCustomerAccountRow(
  runtime: Pick<Runtime, 'database'>,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
): Promise<AccountRow> {
  const db = runtime.database.kysely;
  return getAccountRow(db, await getCustomerForPartner(db, partnerId, customerId), accountId);
}

/** Get Customer Account: one account of the partner's customer as its record, with its positions. */
export async function getCustomerAccount(
  runtime: Pick<Runtime, 'database'>,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
): Promise<AccountRecord> {
  return accountRecord(runtime.database.kysely, await getCustomerAccountRow(runtime, partnerId, customerId, accountId));
}

/** Get Customer Account Simple: one account of the partner's customer as its simple record. */
export async function getCustomerAccountSimple(
  runtime: Pick<Runtime, 'database'>,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
): Promise<AccountSimpleRecord> {
  return toAccountSimpleRecord(await getCustomerAccountRow(runtime, partnerId, customerId, accountId));
}

/** Deletes accounts (their transactions and positions go with them) and records a `deleted` event for each. */
export async function deleteAccountRows(
  runtime: Pick<Engine, 'clock' | 'keys' | 'onEventsRecorded'>,
  tx: Executor,
  customer: CustomerRow,
  rows: readonly AccountRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const records = await accountRecords(tx, rows);
  const now = customerNow(runtime, customer);
  await repo.deleteAccounts(
    tx,
    rows.map((r) => r.id),
  );
  const events: AggregationEvent[] = records.map((record, i) => ({
    class: 'account',
    type: 'deleted',
    partnerId: customer.partner_id,
    customerId: customer.id,
    accountId: rows[i]!.id,
    record: { ...record, lastUpdatedDate: now },
  }));
  await recordEvents(runtime, tx, events);
}

/**
 * Deletes one account of the customer (204; 404 when unknown). When it was the last account of its institution
 * login, the login goes too: a login without accounts has nothing to show or refresh.
 */
export async function deleteAccount(
  runtime: Pick<Engine, 'database' | 'clock' | 'keys' | 'onEventsRecorded'>,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
  within?: (tx: Executor, deleted: { accountId: string; institutionLoginId: number; loginDeleted: boolean }) => Promise<void>,
): Promise<void> {
  await runtime.database.kysely.transaction().execute(async (tx) => {
    const customer = await getCustomerForPartner(tx, partnerId, customerId);
    const row = await getAccountRow(tx, customer, accountId);
    await deleteAccountRows(runtime, tx, customer, [row]);
    const left = await repo.loginHasAccounts(tx, row.institution_login_id);
    if (!left) await deleteLogin(tx, row.institution_login_id);
    // Callers (Connect) add what must commit with the deletion, such as its webhook.
    if (within) await within(tx, { accountId: String(row.id), institutionLoginId: Number(row.institution_login_id), loginDeleted: !left });
  });
}

/** Deletes an institution login with all its accounts (204; 404 when unknown). */
export async function deleteInstitutionLogin(
  runtime: Pick<Engine, 'database' | 'clock' | 'keys' | 'onEventsRecorded'>,
  partnerId: string,
  customerId: string | number,
  institutionLoginId: string | number,
  within?: (tx: Executor, deleted: { institutionLoginId: number; accountIds: string[] }) => Promise<void>,
): Promise<void> {
  await runtime.database.kysely.transaction().execute(async (tx) => {
    const customer = await getCustomerForPartner(tx, partnerId, customerId);
    const login = await getLoginRow(tx, customer, institutionLoginId);
    const rows = await listAccountRows(tx, customer, { institutionLoginId: login.id });
    await deleteAccountRows(runtime, tx, customer, rows);
    await deleteLogin(tx, login.id);
    if (within) await within(tx, { institutionLoginId: Number(login.id), accountIds: rows.map((r) => String(r.id)) });
  });
}
