/**
 * Which accounts the payment products serve, and with what. Every answer is made of what the account's source
 * stored: an account whose source gave no such data gets the reference's "not available" answer (400, code 14020),
 * never an invented value (docs/payments.md, "Where the data comes from").
 */
import type { AccountOwnership, LoanPaymentInstructions } from '../../connectors/connector.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { AccountRow } from '../aggregation/table.js';

/** The reference's checking, savings, money market and CD accounts: Ledgerlink's checking and savings (OFX money market and CD accounts are savings). */
const DEPOSIT_TYPES: ReadonlySet<string> = new Set(['checking', 'savings']);
const LOAN_TYPES: ReadonlySet<string> = new Set(['loan', 'mortgage']);

/** The reference's answer for an account of a type the product does not serve. */
function typeNotSupported(): ServiceError {
  return new ServiceError('BadRequest', 'Bad request. (Account type not supported).');
}

/** The same code for an account of a served type whose source did not give what the product needs. */
function notAvailable(what: string, why: string): ServiceError {
  return new ServiceError('BadRequest', `Bad request. (${what} not available for this account: ${why}).`);
}

/** Refuses accounts other than checking and savings. */
export function requireDepositAccount(row: Pick<AccountRow, 'type'>): void {
  if (!DEPOSIT_TYPES.has(row.type)) throw typeNotSupported();
}

/**
 * The account number as ACH needs it: the stored number with its spaces and hyphens taken out, when what is left is
 * 4 to 17 digits (NACHA's field holds 17). A masked number (`xxxx1234`, a card's) or none is no account number.
 */
export function achAccountNumber(number: string): string | undefined {
  const digits = number.replace(/[\s-]/g, '');
  return /^\d{4,17}$/.test(digits) ? digits : undefined;
}

/** A deposit account's routing and full account numbers; 400 (14020) when the account is not one or its source gave neither. */
export function achNumbers(row: Pick<AccountRow, 'type' | 'number' | 'routing_number'>): { routingNumber: string; accountNumber: string } {
  requireDepositAccount(row);
  const accountNumber = achAccountNumber(row.number);
  if (row.routing_number === null || row.routing_number === undefined) throw notAvailable('ACH details are', 'its source gives no routing number');
  if (accountNumber === undefined) throw notAvailable('ACH details are', 'its source gives no full account number');
  return { routingNumber: row.routing_number, accountNumber };
}

/** A loan's number and manual payment instructions; 400 (14020) for other account types and loans whose source gave none. */
export function loanPayment(row: Pick<AccountRow, 'type' | 'number' | 'loan_payment'>): { loanNumber: string; payment: LoanPaymentInstructions } {
  if (!LOAN_TYPES.has(row.type)) throw typeNotSupported();
  const loanNumber = achAccountNumber(row.number);
  if (row.loan_payment === null || row.loan_payment === undefined) throw notAvailable('Loan payment details are', 'its source gives no payment instructions');
  if (loanNumber === undefined) throw notAvailable('Loan payment details are', 'its source gives no full loan number');
  return { loanNumber, payment: JSON.parse(row.loan_payment) as LoanPaymentInstructions };
}

/** Live balances come from a source to ask again: an account of a statement file has none (400, 14020). */
export function refusedLiveBalance(): ServiceError {
  return notAvailable('A live balance is', 'it comes from statement files, which only a newer upload brings up to date');
}

/** A statement file account whose files stated no balance: no balance to answer. */
export function refusedUnstatedBalance(): ServiceError {
  return notAvailable('The available balance is', 'no statement file of it states a balance');
}

/** The account's owners; 404 (12017, the reference's answer) when its source gave none. */
export function ownershipOf(row: Pick<AccountRow, 'owners'>): AccountOwnership {
  if (row.owners === null || row.owners === undefined) throw new ServiceError('AccountOwnerNotFound');
  const ownership = JSON.parse(row.owners) as AccountOwnership;
  if (ownership.holders.length === 0) throw new ServiceError('AccountOwnerNotFound');
  return ownership;
}
