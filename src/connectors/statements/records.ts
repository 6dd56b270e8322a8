/**
 * A statement file's accounts and transactions as the connector contract's records, so the aggregation engine stores
 * them the way it stores what a connector fetched: the same account details per type, the same categorisation.
 * A file says less than an institution: details it does not state are zero or empty.
 */
import { investmentDetailOf, loanDetailOf } from '../details.js';
import { categorize } from '../categorize.js';
import type { ConnectorAccount, ConnectorTransaction } from '../connector.js';
import { countryOfCurrency } from '../ofx/map.js';
import type { StatementAccount, StatementTransaction } from './types.js';

function last4(number: string): string {
  return number.replace(/[^A-Za-z0-9]/g, '').slice(-4);
}

export interface StatementAccountState {
  /** The balance to record, and when it was valid (the engine keeps a newer one it already has). */
  balance: number;
  balanceDate: number;
  /** From 1, in the order the login's accounts are listed. */
  displayPosition: number;
}

/** A statement's account as a contract account record of its type. */
export function statementAccountRecord(a: StatementAccount, state: StatementAccountState): ConnectorAccount {
  const { balance, balanceDate, displayPosition } = state;
  const base = {
    ref: a.ref,
    number: a.number,
    accountNumberDisplay: last4(a.number),
    name: a.name,
    accountNickname: a.name,
    currency: a.currency,
    balance,
    balanceDate,
    status: 'active' as const,
    financialinstitutionAccountStatus: 'OPEN' as const,
    marketSegment: 'personal' as const,
    displayPosition,
  };
  const available = a.availableBalance;
  switch (a.type) {
    case 'checking':
    case 'savings': {
      const digits = /\d{4}$/.exec(a.number)?.[0];
      const detail = { availableBalanceAmount: available ?? balance, periodInterestRate: '' };
      return digits ? { ...base, type: a.type, detail, realAccountNumberLast4: digits } : { ...base, type: a.type, detail };
    }
    case 'creditCard':
      return { ...base, type: 'creditCard' };
    case 'lineOfCredit':
      return {
        ...base,
        type: 'lineOfCredit',
        detail: {
          interestRate: '',
          creditAvailableAmount: available ?? 0,
          paymentMinAmount: 0,
          statementCloseBalance: balance,
          locPrincipalBalance: Math.max(0, -balance),
          paymentDueDate: 0,
          statementEndDate: 0,
        },
      };
    case 'loan':
    case 'mortgage':
      return {
        ...base,
        type: a.type,
        detail: loanDetailOf({
          payoffAmount: Math.abs(balance),
          principalBalance: Math.abs(balance),
          availableBalanceAmount: available ?? 0,
          endingBalanceAmount: balance,
        }),
      };
    default:
      return {
        ...base,
        type: a.type,
        detail: investmentDetailOf({ availableCashBalance: available ?? 0, currentBalance: balance, vestedBalance: balance, cashAccountAllowed: true }),
        // A statement file's positions are not read; its cash movements and trades are transactions.
        position: [],
      };
  }
}

/** A statement's transaction as a contract transaction record: posted, categorised by the account's currency. */
export function statementTransactionRecord(t: StatementTransaction, currency: string): ConnectorTransaction {
  const record: ConnectorTransaction = {
    ref: t.ref,
    accountRef: t.accountRef,
    amount: t.amount,
    status: 'active',
    description: t.description,
    type: t.type,
    transactionDate: t.transactionDate,
    postedDate: t.postedDate,
    categorization: categorize(t.description, t.memo, t.type, countryOfCurrency(currency)),
  };
  if (t.memo !== undefined) record.memo = t.memo;
  if (t.checkNum !== undefined) record.checkNum = t.checkNum;
  return record;
}
