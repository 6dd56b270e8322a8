/**
 * An amount as text for the files and protocols that carry it as a string (exports, the SimpleFIN server): a plain
 * number with a point, two decimals when it has no more (`-12.50`, `3.00`), otherwise every decimal it has
 * (`-12.345` in a three-decimal currency, `0.004`); never an exponent, a grouping separator or `-0.00`. An amount
 * within a billionth of whole cents is written in cents: that difference is arithmetic's noise (`0.1 + 0.2`).
 */
export function amountText(amount: number): string {
  const cents = Math.round(amount * 100);
  const text = Math.abs(cents / 100 - amount) < 1e-9 ? (cents === 0 ? 0 : cents / 100).toFixed(2) : String(amount);
  return text.includes('e') ? withoutExponent(text) : text;
}

/** `1e-9` as `0.000000001`, `1.5e+21` as `1500000000000000000000`: the same digits, the point moved. */
function withoutExponent(text: string): string {
  const [mantissa = '', exponent = '0'] = text.split('e');
  const sign = mantissa.startsWith('-') ? '-' : '';
  const unsigned = mantissa.replace('-', '');
  const point = unsigned.indexOf('.');
  const digits = unsigned.replace('.', '');
  const whole = (point < 0 ? unsigned.length : point) + Number(exponent);
  if (whole <= 0) return `${sign}0.${'0'.repeat(-whole)}${digits}`;
  if (whole >= digits.length) return `${sign}${digits}${'0'.repeat(whole - digits.length)}.00`;
  return `${sign}${digits.slice(0, whole)}.${digits.slice(whole)}`;
}
