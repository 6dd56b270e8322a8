import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inferDateOrder, inferDecimalSeparator, isoDay, noonUtc, parseAmount, parseDate } from '../../src/connectors/statements/values.js';
import { bestTimes } from '../helpers/cost.js';

const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`) / 1000;

describe('amounts', () => {
  it.each([
    ['-12.34', -12.34],
    ['12.34', 12.34],
    ['+12.34', 12.34],
    ['$1,234.56', 1234.56],
    ['-$1,234.56', -1234.56],
    ['$-1,234.56', -1234.56],
    ['(12.34)', -12.34],
    ['($1,234.56)', -1234.56],
    ['12.34-', -12.34],
    ['12.34 CR', 12.34],
    ['12.34 DR', -12.34],
    ['12.34CR', 12.34],
    ['-12.34 CR', 12.34],
    ['12.34 Dr.', -12.34],
    ['USD 12.34', 12.34],
    ['12.34 USD', 12.34],
    ['-USD 12.34', -12.34],
    ['1234567.89', 1234567.89],
    ['1,234,567.89', 1234567.89],
    ['.50', 0.5],
    ['0', 0],
    ['-0.00', 0],
    ['="42.10"', 42.1],
    ['  7.00  ', 7],
    ['−3.50', -3.5],
    ["1'234.50", 1234.5],
  ])('reads %s as %d with a decimal point', (text, value) => {
    expect(parseAmount(text, '.')?.value).toBe(value);
  });

  it.each([
    ['1.234,56', 1234.56],
    ['-1.234,56', -1234.56],
    ['12,5', 12.5],
    ['1 234,56', 1234.56],
    ['1\u00a0234,56', 1234.56],
    ['-54,38 €', -54.38],
    ['+39,95 €', 39.95],
    ['EUR -1.150,00', -1150],
    ['1.234', 1234],
  ])('reads %s as %d with a decimal comma', (text, value) => {
    expect(parseAmount(text, ',')?.value).toBe(value);
  });

  it.each([
    ['1.234,56', 1234.56],
    ['+12,34', 12.34],
    ['-5,00', -5],
    ['+1.731,40', 1731.4],
  ])('reads the European bank amount %s as %d', (text, value) => {
    expect(parseAmount(text, ',')?.value).toBe(value);
    // The file's separator decides: the same text under a decimal point is refused or read as grouped thousands.
    expect(parseAmount(text, '.')?.value).not.toBe(value);
  });

  it('names the currency a symbol or code stands for, and none for a bare dollar sign', () => {
    expect(parseAmount('€12.00')?.currency).toBe('EUR');
    expect(parseAmount('£12.00')?.currency).toBe('GBP');
    expect(parseAmount('12.00 CAD')?.currency).toBe('CAD');
    expect(parseAmount('C$12.00')?.currency).toBe('CAD');
    expect(parseAmount('$12.00')?.currency).toBeUndefined();
    expect(parseAmount('USD 12.00 EUR')).toBeUndefined();
  });

  it.each(['', 'abc', '12.34.56', '1,23.45', '1.234,56', '--', '$', '12 34', '1e5', 'NaN', '9'.repeat(20), '1'.repeat(100)])(
    'refuses %j with a decimal point',
    (text) => {
      expect(parseAmount(text, '.')).toBeUndefined();
    },
  );

  it('refuses a point-decimal value in a comma-decimal file instead of misreading it', () => {
    expect(parseAmount('1,234.56', ',')).toBeUndefined();
    expect(parseAmount('12,34', '.')).toBeUndefined();
  });

  it('reads any amount written with two decimals back exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e11, max: 1e11 }), fc.constantFrom('.', ','), fc.boolean(), (cents, decimal, grouped) => {
        const abs = Math.abs(cents);
        let whole = String(Math.floor(abs / 100));
        if (grouped) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, decimal === '.' ? ',' : '.');
        const text = `${cents < 0 ? '-' : ''}${whole}${decimal}${String(abs % 100).padStart(2, '0')}`;
        expect(parseAmount(text, decimal as '.' | ',')?.value).toBe(cents / 100);
      }),
    );
  });

  it('stays fast on long cells: refused in at most three times what ordinary amounts of as many characters take', () => {
    const long = ['1'.repeat(100_000), ' '.repeat(100_000) + 'CR', `(${'('.repeat(50_000)}`, '$'.repeat(100_000)];
    for (const text of long) expect(parseAmount(text)).toBeUndefined();
    const size = long.reduce((n, text) => n + text.length, 0);
    const forms = ['-12.34', '$1,234.56', '(1,234,567.89)', '12.34 CR', '-$0.99', 'USD 250.00', '1,000.00-'];
    const ordinary: string[] = [];
    for (let chars = 0; chars < size; ) {
      const cell = forms[ordinary.length % forms.length]!;
      ordinary.push(cell);
      chars += cell.length;
    }
    const parseAll = (cells: string[]) => {
      for (const cell of cells) parseAmount(cell);
    };
    const { plain, hostile } = bestTimes(parseAll, ordinary, long);
    expect(hostile / plain, `long cells ${hostile.toFixed(2)} ms, ordinary amounts ${plain.toFixed(2)} ms`).toBeLessThan(3);
  });
});

describe('the decimal separator of a file', () => {
  it('is the comma when the values show it', () => {
    expect(inferDecimalSeparator(['1.234,56', '-12,00', '3,40 €'])).toBe(',');
    expect(inferDecimalSeparator(['12,5', '1,234'])).toBe(',');
  });

  it('is the point when the values show it or show nothing', () => {
    expect(inferDecimalSeparator(['$1,234.56', '-12.00'])).toBe('.');
    expect(inferDecimalSeparator(['1,234,567', '12'])).toBe('.');
    expect(inferDecimalSeparator(['1,234', '5'])).toBe('.');
    expect(inferDecimalSeparator([])).toBe('.');
  });

  it('leans to the comma in a semicolon-separated file that shows nothing', () => {
    expect(inferDecimalSeparator(['1.234', '12'], ';')).toBe(',');
    expect(inferDecimalSeparator(['1.50'], ';')).toBe('.');
  });

  it('goes with the majority when the values disagree', () => {
    expect(inferDecimalSeparator(['1,50', '2,75', '3.10'])).toBe(',');
    expect(inferDecimalSeparator(['1.50', '2.75', '3,10'])).toBe('.');
  });
});

describe('dates', () => {
  it.each([
    ['03/04/2026', 'mdy', '2026-03-04'],
    ['03/04/2026', 'dmy', '2026-04-03'],
    ['3/4/26', 'mdy', '2026-03-04'],
    ['3/4/26', 'dmy', '2026-04-03'],
    ['12/31/99', 'mdy', '1999-12-31'],
    ['01/02/69', 'mdy', '2069-01-02'],
    ['2026-03-04', 'dmy', '2026-03-04'],
    ['2026/03/04', 'mdy', '2026-03-04'],
    ['2026-3-4', 'mdy', '2026-03-04'],
    ['20260304', 'dmy', '2026-03-04'],
    ['31/12/2026', 'dmy', '2026-12-31'],
    ['04.03.2026', 'dmy', '2026-03-04'],
    ['04-03-2026', 'dmy', '2026-03-04'],
    ['26/03/04', 'ymd', '2026-03-04'],
    ['2026-03-04T23:59:59Z', 'mdy', '2026-03-04'],
    ['2026-03-04T00:30:00.000-08:00', 'mdy', '2026-03-04'],
    ['2026-03-04 10:15:00', 'mdy', '2026-03-04'],
    ['03/04/2026 10:15 AM', 'mdy', '2026-03-04'],
    ['03/04/2026 9:05:33 p.m. EST', 'mdy', '2026-03-04'],
    ['4 Mar 2026', 'mdy', '2026-03-04'],
    ['04-Mar-26', 'dmy', '2026-03-04'],
    ['4 March 2026', 'mdy', '2026-03-04'],
    ['Mar 4, 2026', 'dmy', '2026-03-04'],
    ['Sept 30 2026', 'mdy', '2026-09-30'],
    ['="03/04/2026"', 'mdy', '2026-03-04'],
    ['02/29/2028', 'mdy', '2028-02-29'],
    // As European banks write them: dotted with four or two-digit years, packed, with a time.
    ['31.12.2025', 'dmy', '2025-12-31'],
    ['31.12.25', 'dmy', '2025-12-31'],
    ['20251231', 'dmy', '2025-12-31'],
    ['2025-12-31 10:11:12', 'dmy', '2025-12-31'],
  ] as const)('reads %s (%s) as %s, at noon UTC', (text, order, iso) => {
    const seconds = parseDate(text, order);
    expect(seconds).toBe(day(iso));
    expect(isoDay(seconds!)).toBe(iso);
  });

  it.each([
    ['13/04/2026', 'mdy'],
    ['04/13/2026', 'dmy'],
    ['02/29/2026', 'mdy'],
    ['2026-02-30', 'mdy'],
    ['2026-13-01', 'mdy'],
    ['00/10/2026', 'mdy'],
    ['03/04/2026 garbage', 'mdy'],
    ['03/04/202', 'mdy'],
    ['3/4', 'mdy'],
    ['Smarch 4, 2026', 'mdy'],
    ['20261301', 'mdy'],
    ['yesterday', 'mdy'],
    ['', 'mdy'],
    ['03/04/2026', 'ymd'],
  ] as const)('refuses %j (%s)', (text, order) => {
    expect(parseDate(text, order)).toBeUndefined();
  });

  it('puts every day of four centuries at noon UTC', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1900, 0, 1) / 86_400_000, max: Date.UTC(2199, 11, 31) / 86_400_000 }), (days) => {
        const date = new Date(days * 86_400_000);
        const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
        const pad = (n: number) => String(n).padStart(2, '0');
        const expected = days * 86_400 + 12 * 3600;
        expect(noonUtc(y, m, d)).toBe(expected);
        expect(parseDate(`${pad(m)}/${pad(d)}/${y}`, 'mdy')).toBe(expected);
        expect(parseDate(`${d}.${m}.${y}`, 'dmy')).toBe(expected);
        expect(parseDate(`${y}${pad(m)}${pad(d)}`, 'mdy')).toBe(expected);
      }),
    );
  });
});

describe('the date order of a file', () => {
  it('is day-first when a first part is above 12', () => {
    expect(inferDateOrder(['01/02/2026', '13/02/2026'])).toMatchObject({ order: 'dmy', ambiguous: false, conflicting: false });
  });

  it('is month-first when a second part is above 12', () => {
    expect(inferDateOrder(['01/02/2026', '02/13/2026'])).toMatchObject({ order: 'mdy', ambiguous: false, conflicting: false });
  });

  it('is ambiguous when nothing tells, with an example for the user', () => {
    expect(inferDateOrder(['01/02/2026', '03/04/2026', '12/12/2026'])).toEqual({ order: 'mdy', ambiguous: true, conflicting: false, example: '01/02/2026' });
  });

  it('is not ambiguous when every value reads the same either way', () => {
    expect(inferDateOrder(['05/05/2026', '11/11/2026'])).toMatchObject({ ambiguous: false });
  });

  it('follows a layout convention when the values do not tell, and the values when they do', () => {
    expect(inferDateOrder(['01/02/2026'], 'mdy')).toMatchObject({ order: 'mdy', ambiguous: false });
    expect(inferDateOrder(['01/02/2026', '25/02/2026'], 'mdy')).toMatchObject({ order: 'dmy', ambiguous: false });
  });

  it('takes dotted dates as day-first', () => {
    expect(inferDateOrder(['01.02.2026', '03.04.2026'])).toMatchObject({ order: 'dmy', ambiguous: false });
  });

  it('needs no order for year-first dates', () => {
    expect(inferDateOrder(['2026-01-02', '20260304'])).toMatchObject({ ambiguous: false, conflicting: false });
  });

  it('reports a file that mixes both, going with the majority', () => {
    expect(inferDateOrder(['13/01/2026', '14/01/2026', '01/13/2026'])).toMatchObject({ order: 'dmy', conflicting: true });
  });
});
