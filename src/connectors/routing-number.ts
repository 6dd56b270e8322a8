/**
 * ABA routing numbers (the American Bankers Association's transit numbers), which ACH payments need with an account
 * number. Nine digits, the last a check digit: 3, 7 and 1 weigh the digits in turn, and the weighted sum is a
 * multiple of ten. Sources state them in their own ways (an OFX BANKID, a bank's own number); only what passes the
 * check is kept as one, so a Canadian transit number or a made-up BANKID never reaches an ACH answer.
 */

const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const;

function weightedSum(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * WEIGHTS[i]!;
  return sum;
}

/** Whether the text is an ABA routing number: nine ASCII digits whose check digit holds. */
export function isRoutingNumber(text: string): boolean {
  return /^\d{9}$/.test(text) && weightedSum(text) % 10 === 0;
}

/** The routing number the text states (white space around it apart), or undefined when it is not one. */
export function routingNumberOf(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed !== undefined && isRoutingNumber(trimmed) ? trimmed : undefined;
}

/** The routing number made of eight digits and the check digit they need. */
export function withCheckDigit(eight: string): string {
  if (!/^\d{8}$/.test(eight)) throw new Error(`A routing number is made of eight digits and a check digit, not ${JSON.stringify(eight)}`);
  return `${eight}${(10 - (weightedSum(eight) % 10)) % 10}`;
}
