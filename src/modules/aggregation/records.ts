/**
 * The records the aggregation module answers and its events carry, typed by the contract's schemas, and how stored
 * rows become them. No queries: every file of the module, and the push notifications, can use it without importing
 * each other.
 */
import type { Static } from 'typebox';
import { maskAccountNumber } from '../../connectors/account-number.js';
import type { Account, AccountSimple, Position } from '../../contract/schemas/accounts.js';
import type { ConnectAccount } from '../../contract/schemas/connect-app.js';
import type { Transaction, TransactionList } from '../../contract/schemas/transactions.js';
import type { PushTransaction } from '../../contract/schemas/txpush.js';
import type { AccountRow, EventType, PositionRow, TransactionRow } from './table.js';

export type AccountRecord = Static<typeof Account>;
/** An account as the `simple` account routes show it (CustomerAccountSimple). */
export type AccountSimpleRecord = Static<typeof AccountSimple>;
export type PositionRecord = Static<typeof Position>;
export type TransactionRecord = Static<typeof Transaction>;
/** A page of transactions as the API lists it: moreAvailable and the dates spelled as strings, like the real service. */
export type TransactionListRecord = Static<typeof TransactionList>;
/** A transaction as events (push notifications) carry it: the API record plus the amounts only pushes show. */
export type TransactionEventRecord = Static<typeof PushTransaction>;
/** A linked account as Connect lists it, and the dashboard before the account's status. */
export type AccountSummary = Static<typeof ConnectAccount>;

export type AggregationEvent =
  | {
      class: 'account';
      type: EventType;
      partnerId: string;
      customerId: number;
      accountId: number;
      record: AccountRecord;
      /** Set when this change began the consent's last seven days (authorizationExpiring turned true): a warning to send. */
      consentExpiring?: true;
    }
  | { class: 'transaction'; type: EventType; partnerId: string; customerId: number; accountId: number; record: TransactionEventRecord };

const INVESTMENT_TYPES = new Set(['investment', 'investmentTaxDeferred', 'roth']);

/** Whether accounts of this type hold positions (their records list them). */
export function hasPositions(type: string): boolean {
  return INVESTMENT_TYPES.has(type);
}

const opt = <K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } =>
  (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

export function toPositionRecord(row: PositionRow): PositionRecord {
  return { id: row.id, ...(JSON.parse(row.record) as Omit<PositionRecord, 'id'>) };
}

/**
 * An account row as the API's Account record, with its positions (read by the caller). Optional fields are absent when
 * unknown. Every record that leaves the service (answers, events, pushes, Connect, the dashboard) is made here, so the
 * stored full number is masked here.
 */
export function toAccountRecord(row: AccountRow, positions: readonly PositionRow[] = []): AccountRecord {
  return {
    id: String(row.id),
    number: maskAccountNumber(row.number),
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
    ...(row.authorization_end_at !== null && row.authorization_end_at !== undefined
      ? {
          ...opt('authorizationStartDate', row.authorization_start_at === null ? null : Number(row.authorization_start_at)),
          authorizationEndDate: Number(row.authorization_end_at),
          authorizationExpires: true,
          authorizationExpiring: Number(row.authorization_expiring) === 1,
        }
      : {}),
    ...(row.detail !== null ? { detail: JSON.parse(row.detail) as NonNullable<AccountRecord['detail']> } : {}),
    ...(INVESTMENT_TYPES.has(row.type) ? { position: positions.map(toPositionRecord) } : {}),
  };
}

/** An account row as the API's AccountSimple record: absent dates are left out; it has no number to mask. */
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

/** The fields of an account record that Connect shows (and the dashboard, with more). */
export function accountSummary(a: AccountRecord): AccountSummary {
  return { id: a.id, name: a.name, type: a.type, accountNumberDisplay: a.accountNumberDisplay, balance: a.balance, currency: a.currency };
}

/** The columns a transaction's API record is made of: what a page of transactions selects. */
export const TRANSACTION_RECORD_COLUMNS = [
  'id',
  'amount',
  'account_id',
  'customer_id',
  'status',
  'description',
  'memo',
  'type',
  'transaction_date',
  'posted_date',
  'effective_date',
  'created_at',
  'check_num',
  'normalized_payee_name',
  'category',
  'best_representation',
  'country',
  'investment_transaction_type',
  'ticker',
  'security_id',
  'pending_transaction_id',
  'transfer_transaction_id',
  'source',
] as const;

/** A transaction row with the columns of its API record. */
export type TransactionRecordRow = Pick<TransactionRow, (typeof TRANSACTION_RECORD_COLUMNS)[number]>;

/** Whether a column has a value (rows made in memory may lack a column a select would give as null). */
const given = <V>(value: V | null | undefined): value is V => value !== null && value !== undefined;

/**
 * A transaction row as the API's Transaction record. Optional fields are absent when the institution gives none.
 * Built by assignment, in the record's field order: spreading the optional fields into literals made a push record
 * cost about ten times as much to build (docs/benchmarks.md, "Imports against the goal").
 */
export function toTransactionRecord(row: TransactionRecordRow): TransactionRecord {
  const record: Partial<TransactionRecord> = {
    id: Number(row.id),
    amount: row.amount,
    accountId: Number(row.account_id),
    customerId: Number(row.customer_id),
    status: row.status,
    description: row.description,
  };
  if (given(row.memo)) record.memo = row.memo;
  if (given(row.type)) record.type = row.type;
  if (given(row.transaction_date)) record.transactionDate = Number(row.transaction_date);
  // A pending transaction has not posted: it shows its transaction date until the institution posts it, as clients
  // written for the reference read postedDate on every transaction.
  record.postedDate = Number(row.posted_date ?? row.effective_date);
  record.createdDate = Number(row.created_at);
  if (given(row.check_num)) record.checkNum = row.check_num;
  if (given(row.category)) {
    record.categorization = {
      normalizedPayeeName: row.normalized_payee_name ?? '',
      category: row.category,
      bestRepresentation: row.best_representation ?? '',
      country: row.country ?? '',
    };
  }
  if (given(row.investment_transaction_type)) record.investmentTransactionType = row.investment_transaction_type;
  if (given(row.ticker)) record.ticker = row.ticker;
  if (given(row.security_id)) record.securityId = row.security_id;
  if (given(row.pending_transaction_id)) record.pendingTransactionId = Number(row.pending_transaction_id);
  if (given(row.transfer_transaction_id)) record.transferTransactionId = Number(row.transfer_transaction_id);
  // A file's source names its format and account too (statementFeed): the record shows the source alone.
  if (given(row.source)) record.source = row.source.split(':')[0]!;
  return record as TransactionRecord;
}

/** A transaction row as push notifications carry it (the amounts 0 when none). */
export function toTransactionEventRecord(row: TransactionRow): TransactionEventRecord {
  const record: TransactionEventRecord = toTransactionRecord(row) as TransactionEventRecord;
  record.bonusAmount = row.bonus_amount ?? 0;
  record.escrowAmount = row.escrow_amount ?? 0;
  record.feeAmount = row.fee_amount ?? 0;
  record.interestAmount = row.interest_amount ?? 0;
  record.principalAmount = row.principal_amount ?? 0;
  record.unitQuantity = row.unit_quantity ?? 0;
  record.unitValue = row.unit_value ?? 0;
  return record;
}

/** The event of a change to a transaction row, scoped by the row's own partner, customer and account. */
export function transactionEvent(type: EventType, row: TransactionRow): AggregationEvent {
  return {
    class: 'transaction',
    type,
    partnerId: row.partner_id,
    customerId: Number(row.customer_id),
    accountId: Number(row.account_id),
    record: toTransactionEventRecord(row),
  };
}
