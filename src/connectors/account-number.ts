/**
 * How an account number is shown. Institutions give the full number (an OFX ACCTID, a statement file's account
 * column); the service stores it as given, for products that need it, and answers it only masked: the last four
 * letters or digits, each letter or digit before them replaced by `X`, anything else (separators such as `-`, `=` or
 * spaces) kept, so the institution's format stays readable. This is how the reference describes `number` ("some
 * digits may be masked") next to `accountNumberDisplay` (the last four), and what the test bank's numbers
 * (`XXXXXXXXXXXX1234`) already look like, so masking them again changes nothing.
 */
import { countryOf } from '../platform/countries.js';

/** Letters and digits of any script: full-width or other digits must not slip through as "separators". */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const SHOWN = 4;

/** The account number as every answer, notification and page shows it: only its last four letters or digits. */
export function maskAccountNumber(number: string): string {
  const chars = Array.from(number);
  let shown = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    if (!LETTER_OR_DIGIT.test(chars[i]!)) continue;
    if (shown < SHOWN) shown++;
    else chars[i] = 'X';
  }
  return chars.join('');
}

/** Whether text is an IBAN with a valid check (ISO 13616: mod 97 of the rearranged digits is 1). */
export function isIban(text: string): boolean {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(text)) return false;
  const moved = text.slice(4) + text.slice(0, 4);
  let rest = 0;
  for (const c of moved) {
    const n = c >= 'A' ? c.charCodeAt(0) - 55 : c.charCodeAt(0) - 48;
    rest = n >= 10 ? (rest * 100 + n) % 97 : (rest * 10 + n) % 97;
  }
  return rest === 1;
}

/**
 * The country an account is held in when its number is an IBAN (its first two letters), as ISO 3166 alpha-3;
 * undefined otherwise. A euro account's currency names no country, its IBAN does.
 */
export function ibanCountry(accountNumber: string): string | undefined {
  const compact = accountNumber.replace(/\s+/g, '').toUpperCase();
  return isIban(compact) ? countryOf(compact.slice(0, 2))?.alpha3 : undefined;
}
