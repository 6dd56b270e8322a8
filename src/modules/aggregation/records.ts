/**
 * The records the aggregation module answers and its events carry: types only, so that the files that store
 * accounts, transactions and events can all name them without importing each other.
 */
import type { ConnectorPosition } from '../../connectors/connector.js';
import type { EventType } from './table.js';

export interface Categorization {
  normalizedPayeeName: string;
  category: string;
  bestRepresentation: string;
  country: string;
}

/** An investment holding as the API shows it: the institution's fields with a service-assigned id. */
export type PositionRecord = { id: number } & Omit<ConnectorPosition, 'ref'>;

/** The API's Account record (CustomerAccount). Optional fields are absent when unknown. */
export interface AccountRecord {
  id: string;
  number: string;
  realAccountNumberLast4?: string;
  accountNumberDisplay: string;
  name: string;
  accountNickname: string;
  balance: number;
  type: string;
  status: string;
  aggregationStatusCode: number;
  customerId: string;
  institutionId: string;
  institutionLoginId: number;
  currency: string;
  balanceDate: number;
  aggregationSuccessDate?: number;
  aggregationAttemptDate?: number;
  createdDate: number;
  lastUpdatedDate: number;
  lastTransactionDate?: number;
  oldestTransactionDate?: number;
  displayPosition: number;
  financialinstitutionAccountStatus: string;
  marketSegment: string;
  detail?: Record<string, unknown>;
  position?: PositionRecord[];
}

/** The API's Transaction record. Optional fields are absent when the institution gives none. */
export interface TransactionRecord {
  id: number;
  amount: number;
  accountId: number;
  customerId: number;
  status: string;
  description: string;
  memo?: string;
  type?: string;
  transactionDate?: number;
  postedDate: number;
  createdDate: number;
  checkNum?: string;
  categorization?: Categorization;
  investmentTransactionType?: string;
  ticker?: string;
  securityId?: string;
}

/** A transaction as events (push notifications) carry it: the API record plus the amounts only pushes show (0 when none). */
export interface TransactionEventRecord extends TransactionRecord {
  bonusAmount: number;
  escrowAmount: number;
  feeAmount: number;
  interestAmount: number;
  principalAmount: number;
  unitQuantity: number;
  unitValue: number;
}

export type AggregationEvent =
  | { class: 'account'; type: EventType; partnerId: string; customerId: number; accountId: number; record: AccountRecord }
  | { class: 'transaction'; type: EventType; partnerId: string; customerId: number; accountId: number; record: TransactionEventRecord };
