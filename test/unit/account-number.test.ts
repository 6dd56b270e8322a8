import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskAccountNumber } from '../../src/connectors/account-number.js';

describe('masking account numbers', () => {
  it.each([
    ['000123456789', 'XXXXXXXX6789'],
    ['4111111111111111', 'XXXXXXXXXXXX1111'],
    ['4111XXXXXXXX1111', 'XXXXXXXXXXXX1111'],
    ['XXXXXXXXXXXX4321', 'XXXXXXXXXXXX4321'],
    ['xxxx1234', 'XXXX1234'],
    ['103275057=01', 'XXXXXXX57=01'],
    ['0824-S0050', 'XXXX-X0050'],
    ['1234 5678 9012', 'XXXX XXXX 9012'],
    ['Z12345678', 'XXXXX5678'],
    ['5521', '5521'],
    ['42', '42'],
    ['', ''],
    // Digits of other scripts are digits: none passes as a separator.
    ['１２３４５６７８', 'XXXX５６７８'],
    ['٠١٢٣٤٥٦٧٨٩', 'XXXXXX٦٧٨٩'],
  ])('%s shows as %s', (number, shown) => {
    expect(maskAccountNumber(number)).toBe(shown);
  });

  it('shows at most four letters or digits, the last four, and keeps the length and every other character', () => {
    const alphabet = fc.constantFrom(...'0123456789abcXYZ -=/.１٣');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (chars) => {
        const number = chars.join('');
        const masked = maskAccountNumber(number);
        const isShown = (c: string) => /[\p{L}\p{N}]/u.test(c) && c !== 'X';
        const original = Array.from(number);
        const out = Array.from(masked);
        expect(out).toHaveLength(original.length);
        const letterOrDigit = original.map((c, i) => ({ c, i })).filter(({ c }) => /[\p{L}\p{N}]/u.test(c));
        const lastFour = new Set(letterOrDigit.slice(-4).map(({ i }) => i));
        out.forEach((c, i) => {
          if (lastFour.has(i) || !/[\p{L}\p{N}]/u.test(original[i]!)) expect(c).toBe(original[i]);
          else expect(c).toBe('X');
        });
        expect(out.filter(isShown).length).toBeLessThanOrEqual(4);
        expect(maskAccountNumber(masked)).toBe(masked);
      }),
    );
  });
});
