import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** A set of credentials at one institution and the accounts it reaches. */
export interface InstitutionLoginTable {
  /** Service-assigned, from 6000000000 up. */
  id: Generated<number>;
  partner_id: string;
  customer_id: number;
  institution_id: number;
  /** The connector's opaque session, JSON, encrypted (AES-256-GCM, key derived for 'institution-login'). */
  session_encrypted: string;
  /** The submitted credentials form, encrypted the same way; null for OAuth logins. */
  credentials_encrypted: string | null;
  /** 0 after a successful sign-in or refresh, otherwise the aggregation status code of the last failure. */
  aggregation_status_code: number;
  aggregation_status_message: string | null;
  aggregation_attempt_at: number | null;
  aggregation_success_at: number | null;
  /** While a refresh of this login runs: until when (runtime clock, epoch seconds) and by whom. */
  refresh_lease_until: number | null;
  refresh_lease_owner: string | null;
  /** An error state set through the sandbox controls: every refresh fails with it until Fix or a sandbox clear. */
  sandbox_failure_code: number | null;
  sandbox_failure_message: string | null;
  /**
   * When a worker refreshes the login next without being asked (runtime clock, epoch seconds); null when it is not
   * scheduled: test bank logins, and logins that need the user (schedule.rules.ts).
   */
  refresh_due_at: Generated<number | null>;
  /** Refreshes in a row that failed for a temporary reason: the scheduled retries back off with them. */
  refresh_failures: Generated<number>;
  /** Where its data comes from: its connector, or statement files the customer or partner uploads (nothing to refresh). */
  source: Generated<LoginSource>;
  /** The partner's registered app the login was moved under (Migrate Institution Login Accounts); null before. */
  application_id: Generated<string | null>;
  created_at: number;
  updated_at: number;
}

export type LoginSource = 'connector' | 'statement-file';

export interface AccountTable {
  /** Service-assigned, from 5011000000 up. */
  id: Generated<number>;
  partner_id: string;
  customer_id: number;
  institution_login_id: number;
  institution_id: number;
  /** The institution's stable reference, unique per login. */
  ref: string;
  number: string;
  account_number_display: string;
  real_account_number_last4: string | null;
  name: string;
  account_nickname: string;
  type: string;
  status: string;
  currency: string;
  balance: number;
  balance_date: number;
  market_segment: string;
  display_position: number;
  fi_account_status: string;
  /** The type's detail object as JSON; null for types without one (credit cards). */
  detail: string | null;
  aggregation_status_code: number;
  aggregation_attempt_at: number | null;
  aggregation_success_at: number | null;
  /** When the first successful aggregation (refresh or historic load) stored transactions; null before. */
  first_aggregated_at: number | null;
  /** The earliest transaction date asked of the institution so far (customer clock). */
  history_from: number | null;
  historic_loaded_at: number | null;
  oldest_transaction_at: number | null;
  last_transaction_at: number | null;
  /** The consent the account is read under, where it ends (PSD2): when it was given and when it ends. */
  authorization_start_at: Generated<number | null>;
  authorization_end_at: Generated<number | null>;
  /** 1 from the time the partner is warned that the consent ends soon (docs/aggregation.md) until a new consent. */
  authorization_expiring: Generated<number>;
  /** The ABA routing number the source states (ACH details); null where none has. */
  routing_number: Generated<string | null>;
  /** The account's owners (AccountOwnership as JSON) where a source gave them: the identity products read them. */
  owners: Generated<string | null>;
  /** A loan's manual payment instructions (LoanPaymentInstructions as JSON), where the source gives them. */
  loan_payment: Generated<string | null>;
  created_at: number;
  updated_at: number;
}

export interface PositionTable {
  /** Service-assigned, stable per (account, ref). */
  id: Generated<number>;
  account_id: number;
  ref: string;
  /** The position as the API shows it, without id, as JSON. */
  record: string;
}

export interface TransactionTable {
  /** Service-assigned, from 20000000000 up. */
  id: Generated<number>;
  partner_id: string;
  customer_id: number;
  account_id: number;
  /** The institution's stable reference, unique per account. */
  ref: string;
  /** The date lists filter and sort on: transactionDate, or postedDate when the institution gives none. */
  effective_date: number;
  status: 'active' | 'pending';
  amount: number;
  description: string;
  memo: string | null;
  type: string | null;
  transaction_date: number | null;
  posted_date: number | null;
  check_num: string | null;
  normalized_payee_name: string | null;
  category: string | null;
  best_representation: string | null;
  country: string | null;
  bonus_amount: number | null;
  escrow_amount: number | null;
  fee_amount: number | null;
  interest_amount: number | null;
  principal_amount: number | null;
  unit_quantity: number | null;
  unit_value: number | null;
  investment_transaction_type: string | null;
  ticker: string | null;
  security_id: string | null;
  /** The pending transaction this posted one replaced (its id; that row is gone): pending.service.ts. */
  pending_transaction_id: number | null;
  /** That pending transaction's ref: a source that still lists it does not bring it back. */
  replaced_pending_ref: string | null;
  /** The other side of a transfer between two of the customer's accounts (transfers.service.ts). */
  transfer_transaction_id: number | null;
  /**
   * The source that stored it (`testbank`, `simplefin`, `ofx`; a file's `statement:<format>:<account digest>`,
   * statementFeed); null: a connector's, stored before sources were kept.
   */
  source: string | null;
  /** The institution's own id, when the source gives one another source of the institution gives too (an OFX FITID). */
  institution_transaction_id: string | null;
  created_at: number;
  updated_at: number;
}

/** A transaction another source sent under its own ref, recognised as a stored one (dedup.service.ts). */
export interface TransactionAliasTable {
  account_id: number;
  /** The other source's ref, never stored as a transaction of the account. */
  ref: string;
  source: string;
  transaction_id: number;
  created_at: number;
}

/** Columns the service sets from what it matched between transactions, never from a source's record. */
export type LedgerColumns = 'pending_transaction_id' | 'replaced_pending_ref' | 'transfer_transaction_id';

export type EventClass = 'account' | 'transaction';
export type EventType = 'created' | 'modified' | 'deleted';

/** A change to an account or a transaction, recorded in the transaction that made it (for TxPUSH). */
export interface AggregationEventTable {
  id: Generated<number>;
  partner_id: string;
  customer_id: number;
  account_id: number;
  class: EventClass;
  type: EventType;
  /** The record after the change (before it, for deletions) in the API shape, as JSON. */
  record: string;
  created_at: number;
}

export type LinkStepName = 'mfa' | 'oauth' | 'accounts' | 'failed' | 'finished';

/** A sign-in in progress (Connect or addall), so it can continue in another request or process. */
export interface LinkSessionTable {
  /** Random, unguessable. */
  id: string;
  partner_id: string;
  customer_id: number;
  institution_id: number;
  /** Set when the sign-in repairs (Fix) an existing login. */
  institution_login_id: number | null;
  step: LinkStepName;
  /** Connector state for the next step (MFA state, OAuth pending data, the session and credentials), encrypted JSON. */
  state_encrypted: string | null;
  /** The accounts the institution showed, as JSON (step accounts). */
  discovered: string | null;
  failure_code: number | null;
  failure_message: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
}

export type InstitutionLoginRow = Selectable<InstitutionLoginTable>;
export type NewInstitutionLoginRow = Insertable<InstitutionLoginTable>;
export type InstitutionLoginUpdate = Updateable<InstitutionLoginTable>;
export type AccountRow = Selectable<AccountTable>;
export type NewAccountRow = Insertable<AccountTable>;
export type AccountUpdate = Updateable<AccountTable>;
export type PositionRow = Selectable<PositionTable>;
export type TransactionRow = Selectable<TransactionTable>;
export type NewTransactionRow = Insertable<TransactionTable>;
export type TransactionUpdate = Updateable<TransactionTable>;
export type AggregationEventRow = Selectable<AggregationEventTable>;
export type NewAggregationEventRow = Insertable<AggregationEventTable>;
export type LinkSessionRow = Selectable<LinkSessionTable>;
export type LinkSessionUpdate = Updateable<LinkSessionTable>;

/** A partner's column mapping for CSV files of one layout (statement-mappings.service.ts). */
export interface StatementMappingTable {
  partner_id: string;
  /** The layout's key (connectors/statements/fingerprint.ts). */
  fingerprint: string;
  /** The column mapping, JSON. */
  mapping: string;
  created_at: number;
  updated_at: number;
  /** When an upload last saved or used it: the least recently used go first past the partner's cap. */
  last_used_at: number;
}

export type StatementMappingRow = Selectable<StatementMappingTable>;
