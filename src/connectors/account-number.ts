/**
 * How an account number is shown. Institutions give the full number (an OFX ACCTID, a statement file's account
 * column); the service stores it as given, for products that need it, and answers it only masked: the last four
 * letters or digits, each letter or digit before them replaced by `X`, anything else (separators such as `-`, `=` or
 * spaces) kept, so the institution's format stays readable. This is how the reference describes `number` ("some
 * digits may be masked") next to `accountNumberDisplay` (the last four), and what the test bank's numbers
 * (`XXXXXXXXXXXX1234`) already look like, so masking them again changes nothing.
 */

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
