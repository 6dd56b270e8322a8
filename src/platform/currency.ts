/**
 * ISO 4217 currency codes: the one list every source of an account's currency is checked against (OFX `CURDEF` and a
 * transaction's `CURRENCY`/`ORIGCURRENCY`, SimpleFIN's `currency`, a statement upload's `currency` option and the
 * codes CSV amounts name), so that nothing but a real code is stored or served.
 *
 * The list is ISO 4217 list one (current currencies, funds, precious metals, `XXX` and `XTS`) as the `currency-codes`
 * package ships it, plus the codes ISO added after that package's data. Node's `Intl.supportedValuesOf('currency')`
 * is not the source: it changes with each Node release's ICU data, lacks codes in use (VED, the fund and metal
 * codes, XXX) and keeps withdrawn ones (HRK).
 */
import { data, publishDate } from 'currency-codes';

/** ISO 4217's code for "no currency": what an amount gets when its source names no currency it can be said to be in. */
export const NO_CURRENCY = 'XXX';

/** The date of the ISO list the package ships. */
export const ISO_4217_PACKAGE_DATE: string = publishDate;

/** Codes ISO added to list one after the package's data: the Caribbean guilder, in use since 2025. */
const ADDED_SINCE_PACKAGE = ['XCG'] as const;

const CODES: ReadonlySet<string> = new Set([...data.map((record) => record.code), ...ADDED_SINCE_PACKAGE]);

const MINOR_UNITS: ReadonlyMap<string, number> = new Map(data.map((record) => [record.code, record.digits]));

/**
 * How many decimals an amount in `code` is shown with: the currency's minor unit (three for KWD, BHD, OMR, JOD, TND;
 * four for CLF), at least two, so that yen and a code without a minor unit keep the two decimals every amount had.
 */
export function shownDecimals(code: string): number {
  return Math.max(2, MINOR_UNITS.get(code) ?? 2);
}

/** Whether `code` is an ISO 4217 code as written (upper case, no spaces). */
export function isIso4217(code: string): boolean {
  return code.length === 3 && CODES.has(code);
}

/** The ISO 4217 code `value` names, spaces around and letter case aside (`usd` is USD); undefined when it names none. */
export function iso4217Code(value: string | undefined): string | undefined {
  if (typeof value !== 'string' || value.length > 64) return undefined;
  const code = value.trim().toUpperCase();
  return isIso4217(code) ? code : undefined;
}

/** A currency value that is not a code, as a message may show it: short printable text quoted, anything else described. */
export function describeCurrencyValue(value: string): string {
  const text = value.trim();
  if (text === '') return 'an empty currency';
  if (/^[\x21-\x7e][\x20-\x7e]{0,15}$/.test(text)) return `"${text}"`;
  return `a currency text of ${text.length.toLocaleString('en-US')} characters`;
}
