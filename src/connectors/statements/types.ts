/**
 * What a statement file (of any format in STATEMENT_FORMATS) holds once read: accounts and their transactions, in
 * the connector contract's terms, before they are merged into an institution login. Every format's reader produces
 * the same shape, so the import that deduplicates and stores them does not care which kind of file it was.
 */
import type { StatementFormatName } from '../../contract/schemas/statements.js';
import type { AccountType, ConnectorPosition, ConnectorTransaction } from '../connector.js';
import type { CsvLayoutUsed } from './fingerprint.js';

/**
 * Most positions kept of one account: an account holds a few hundred securities at most, and each position is a row
 * written in the account's one short transaction. Past this, the rest are named in `problems`.
 */
export const MAX_STATEMENT_POSITIONS = 2000;

export interface StatementAccount {
  /**
   * Stable across uploads of the same account: the account id the file states (OFX's masked where the file masks it;
   * with the currency for MT940 and camt, whose one id may hold several), or one made from what the file says (CSV, QIF).
   */
  ref: string;
  type: AccountType;
  /** The account number as the file gives it (may be masked). */
  number: string;
  /** The ABA routing number the file states for the account (an OFX file's BANKID that is one). */
  routingNumber?: string;
  name: string;
  currency: string;
  /** The ledger balance the file states, if any, and when it was valid (epoch seconds). */
  balance?: number;
  balanceDate?: number;
  availableBalance?: number;
  /**
   * Every closing balance the file states, one per day (the last of the day): each statement's (OFX, camt, MT940) or,
   * for a CSV file whose rows are in date order, the running balance after each day's last row. `balance` is the latest.
   */
  closingBalances?: { date: number; balance: number }[];
  /**
   * The period the file's statements say they cover (OFX's DTSTART and DTEND), where it states either end; several
   * statements of the account in one file widen it. Formats without statement dates leave it out.
   */
  statedPeriod?: { start?: number; end?: number };
  /**
   * An investment account's holdings as of the balance's date, in the connector contract's terms; absent when the
   * file states none (an upload then keeps the stored ones).
   */
  positions?: ConnectorPosition[];
}

export interface StatementImport {
  /** Which kind of file it was read from. */
  format: StatementFormatName;
  accounts: StatementAccount[];
  /**
   * In the connector contract's terms, as a refresh fetches them: posted (a file holds no pending ones), categorised
   * by the account's currency. Refs are stable across uploads of the same transaction, each format's own: the FITID
   * for OFX, the bank's reference for MT940 and camt where it is unique, else a key of date, amount and description
   * (with its occurrence number among identical ones in the same file), as for CSV and QIF.
   */
  transactions: ConnectorTransaction[];
  /** Rows or records that could not be read, with why (shown to the user; the rest is still imported). */
  problems: { line?: number; message: string }[];
  /**
   * Where the accounts' currency came from when not from the file (CSV, QIF): the upload's `currency` option, or the
   * default (USD) when neither the file nor the upload names one.
   */
  currencyFrom?: 'asked' | 'default';
  /** CSV only: the key of the file's layout and the column mapping it was read with (a partner's saved mappings go by it). */
  layout?: CsvLayoutUsed;
}
