/**
 * A statement file's account as the connector contract's record, so it is stored the way a refresh stores what a
 * connector fetched, with the details of its type. A file says less than an institution: details it does not state
 * are zero or empty. Which balance the record carries is a storing rule (a file need not state one, and an older
 * statement uploaded later must not replace a newer balance), so the upload decides it from the stored account.
 */
import { investmentDetailOf, loanDetailOf } from '../../connectors/details.js';
import type { ConnectorAccount } from '../../connectors/connector.js';
import type { StatementAccount } from '../../connectors/statements/types.js';

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
      return {
        ...base,
        type: a.type,
        detail,
        ...(digits ? { realAccountNumberLast4: digits } : {}),
        ...(a.routingNumber ? { routingNumber: a.routingNumber } : {}),
      };
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
        // Whether the stored positions stay (a file that states none, an older statement) is the upload's to decide.
        position: a.positions ?? [],
      };
  }
}
