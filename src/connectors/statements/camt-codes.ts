/**
 * What the codes of a camt file say in the connector contract's terms: the ISO 20022 bank transaction codes
 * (domain, family, sub-family, from the ISO external code list) or a proprietary code beginning with a SWIFT MT940
 * transaction type (German banks write `NSTO+152+00931`), as transaction types; the external cash account type
 * codes as account types. Only where the code says it plainly; anything else is told from the sign.
 */
import type { AccountType, TransactionType } from '../connector.js';

/** Sub-families that name the kind of booking whatever their family. */
const SUB_FAMILIES: Readonly<Record<string, TransactionType>> = {
  INTR: 'interest',
  CHRG: 'serviceCharge',
  FEES: 'fee',
  COMM: 'fee',
  STDO: 'repeatPayment',
  CDPT: 'deposit',
  POSD: 'pointOfSale',
  POSC: 'pointOfSale',
  SMRT: 'pointOfSale',
  DVCA: 'dividend',
};

/** Families, when the sub-family said nothing more. */
const FAMILIES: Readonly<Record<string, TransactionType>> = {
  RDDT: 'directDebit',
  ICHQ: 'check',
  RCHQ: 'deposit',
  RCDT: 'transfer',
  ICDT: 'transfer',
  RRCT: 'transfer',
  IRCT: 'transfer',
  CCRD: 'pointOfSale',
  CNTR: 'cash',
};

/** SWIFT MT940 transaction types, at the start of a proprietary code. */
const SWIFT_TYPES: Readonly<Record<string, TransactionType>> = {
  NSTO: 'repeatPayment',
  NDDT: 'directDebit',
  NCHG: 'serviceCharge',
  NCOM: 'fee',
  NINT: 'interest',
  NCHK: 'check',
  NTRF: 'transfer',
  NDIV: 'dividend',
};

/** A booking's codes: `BkTxCd/Domn` (`Cd`, `Fmly/Cd`, `Fmly/SubFmlyCd`) and `BkTxCd/Prtry/Cd`. */
export interface BankTransactionCode {
  domain: string;
  family: string;
  subFamily: string;
  proprietary: string;
}

/** The transaction type the codes name plainly, else undefined. `credit` is whether the booking adds money. */
export function transactionTypeOfCode(code: BankTransactionCode, credit: boolean): TransactionType | undefined {
  const { family, subFamily } = code;
  if (subFamily === 'SALA') return credit ? 'directDeposit' : 'payment';
  if (subFamily === 'CWDL') return family === 'CCRD' ? 'atm' : 'cash';
  const bySub = Object.hasOwn(SUB_FAMILIES, subFamily) ? SUB_FAMILIES[subFamily] : undefined;
  if (bySub) return bySub;
  const byFamily = Object.hasOwn(FAMILIES, family) ? FAMILIES[family] : undefined;
  if (byFamily) return byFamily;
  const swift = /^N[A-Z]{3}/.exec(code.proprietary)?.[0];
  return swift !== undefined && Object.hasOwn(SWIFT_TYPES, swift) ? SWIFT_TYPES[swift] : undefined;
}

/** ISO external cash account type codes (`Acct/Tp/Cd`) that are not current accounts. */
const ACCOUNT_TYPES: Readonly<Record<string, AccountType>> = {
  SVGS: 'savings',
  LLSV: 'savings',
  MOMA: 'savings',
  ONDP: 'savings',
  LOAN: 'loan',
  MGLD: 'loan',
  ODFT: 'lineOfCredit',
  CARD: 'creditCard',
};

/** The kind of account `Acct/Tp/Cd` names; a current account when it names none of these. */
export function accountTypeOfCode(code: string): AccountType {
  return Object.hasOwn(ACCOUNT_TYPES, code) ? ACCOUNT_TYPES[code]! : 'checking';
}
