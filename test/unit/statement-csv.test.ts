import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CsvDelimiter,
  detectDelimiter,
  isSummaryRow,
  locateHeader,
  MAX_CSV_BYTES,
  MAX_CSV_COLUMNS,
  MAX_CSV_ROW_CHARS,
  MAX_CSV_ROWS,
  readCsv,
  StatementFileError,
} from '../../src/connectors/statements/csv.js';
import { detectLayout } from '../../src/connectors/statements/detect.js';
import { readCsvStatement } from '../../src/connectors/statements/import.js';
import { bestTime, orRefused } from '../helpers/cost.js';

const cells = (text: string | Uint8Array, delimiter?: CsvDelimiter) => readCsv(text, delimiter ? { delimiter } : {}).rows.map((r) => r.cells);

/** Writes rows as CSV, quoting what needs it. */
function writeCsv(rows: string[][], delimiter: string, newline: string): string {
  const field = (value: string) =>
    value.includes(delimiter) || /["\r\n\uFEFF]|^\s|\s$/.test(value) || value.startsWith('sep=') ? `"${value.replaceAll('"', '""')}"` : value;
  return rows.map((row) => row.map(field).join(delimiter)).join(newline) + newline;
}

describe('reading CSV text', () => {
  it('reads quoted fields with separators, doubled quotes and line breaks inside', () => {
    expect(cells('a,"b, c","say ""hi""","two\nlines"\nd,e,f,g\n')).toEqual([
      ['a', 'b, c', 'say "hi"', 'two\nlines'],
      ['d', 'e', 'f', 'g'],
    ]);
  });

  it('accepts CRLF, LF and CR line ends, even mixed', () => {
    expect(cells('a,b\r\nc,d\ne,f\rg,h')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
    ]);
  });

  it('skips blank lines and lines of empty fields, and numbers the rest by the line they start on', () => {
    const table = readCsv('a,b\r\n\r\n  \r\n,,\r\n"x\r\ny",2\r\nz,3\r\n');
    expect(table.rows).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 5, cells: ['x\r\ny', '2'] },
      { line: 7, cells: ['z', '3'] },
    ]);
  });

  it('strips a byte-order mark and trims spaces around unquoted and quoted fields', () => {
    expect(cells('\uFEFFDate , "Amount" \n 1 ,  " 2 "')).toEqual([
      ['Date', 'Amount'],
      ['1', ' 2 '],
    ]);
  });

  it('reads text after a closing quote as written rather than refusing the file', () => {
    expect(cells('"6" SUB,1\n2,3')).toEqual([
      ['"6" SUB', '1'],
      ['2', '3'],
    ]);
  });

  it('honours a sep= line and counts it', () => {
    const table = readCsv('sep=;\nDate;Amount\n01/02/2026;1,50\n');
    expect(table.delimiter).toBe(';');
    expect(table.rows[0]).toEqual({ line: 2, cells: ['Date', 'Amount'] });
  });

  it('decodes UTF-8, UTF-16 with a byte-order mark, and Windows-1252 bytes', () => {
    const text = 'Date,Description\n01/02/2026,Café Müller\n';
    expect(cells(new TextEncoder().encode(text))[1]).toEqual(['01/02/2026', 'Café Müller']);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(readCsv(utf16).rows[1]!.cells).toEqual(['01/02/2026', 'Café Müller']);
    const latin = Buffer.from(text, 'latin1');
    expect(readCsv(latin).rows[1]!.cells).toEqual(['01/02/2026', 'Café Müller']);
  });

  it('refuses an unclosed quote with the line it starts on', () => {
    expect(() => readCsv('a,b\nc,"d\ne,f\n')).toThrow(/quoted field is never closed/);
    expect(() => readCsv('a,b\nc,"d\ne,f\n')).toThrow(StatementFileError);
  });
});

describe('the separator', () => {
  it.each([
    [',', 'Date,Description,Amount\n01/02/2026,"Coffee; large",-4.50\n'],
    [';', 'Datum;Beschreibung;Betrag\n01.02.2026;Kaffee, groß;-4,50\n01.02.2026;Brot;-2,10\n'],
    ['\t', 'Date\tDescription\tAmount\n01/02/2026\tCoffee, large; hot\t-4.50\n'],
    [';', 'Date;Amount\n01.02.2026;1,50\n'],
    [',', 'Description,,Summary Amt.\nBeginning balance,,"1,000.00"\n\nDate,Description,Amount,Running Bal.\n01/02/2026,A,-1.00,999.00\n'],
  ])('is %j for %j', (delimiter, text) => {
    expect(detectDelimiter(text)).toBe(delimiter);
    expect(readCsv(text).delimiter).toBe(delimiter);
  });

  it('ignores separators inside quotes', () => {
    expect(detectDelimiter('a;b\n"x,y,z,w";c\n"p,q,r";s\n')).toBe(';');
  });
});

describe('where the table starts', () => {
  const rows = (text: string) => readCsv(text).rows;

  it('is the first row when it names the columns', () => {
    expect(locateHeader(rows('Date,Description,Amount\n01/02/2026,Coffee,-4.50\n'))).toBe(0);
  });

  it('is below a summary block', () => {
    const text =
      'Description,,Summary Amt.\nBeginning balance as of 01/01/2026,,"1,000.00"\nTotal credits,,"50.00"\n' +
      '\nDate,Description,Amount,Running Bal.\n01/01/2026,Beginning balance as of 01/01/2026,,"1,000.00"\n01/02/2026,Coffee,-4.50,995.50\n';
    expect(locateHeader(rows(text))).toBe(3);
  });

  it('is below title lines', () => {
    expect(locateHeader(rows('Account statement\nAccount,****1234\nPeriod,01/01/2026 - 01/31/2026\nDate,Payee,Amount\n01/02/2026,Coffee,-4.50\n'))).toBe(3);
  });

  it('is absent (-1) when the file starts with data', () => {
    expect(locateHeader(rows('"01/02/2026","-4.50","*","","COFFEE"\n"01/03/2026","-2.00","*","","TEA"\n'))).toBe(-1);
  });

  it('tells summary lines from transactions', () => {
    expect(isSummaryRow(['Total', '', '-123.45'])).toBe(true);
    expect(isSummaryRow(['Ending balance as of 10/31/2026', '', '6,506.02'])).toBe(true);
    expect(isSummaryRow(['', 'Beginning balance as of 10/01/2026', ''])).toBe(true);
    expect(isSummaryRow(['Totals:', '3', '-123.45'])).toBe(true);
    expect(isSummaryRow(['Closing Balance 1,234.00'])).toBe(true);
    expect(isSummaryRow(['10/30/2026', 'STARBUCKS', '-5.75'])).toBe(false);
    expect(isSummaryRow(['', 'TOTAL WINE & MORE', ''])).toBe(false);
    expect(isSummaryRow(['', 'BALANCE TRANSFER', ''])).toBe(false);
  });
});

describe('the limits', () => {
  it('refuse a file over the size limit, as text or bytes', () => {
    const big = 'a'.repeat(MAX_CSV_BYTES + 1);
    expect(() => readCsv(big)).toThrow(expect.objectContaining({ code: 'too_large', message: expect.stringContaining('10 MB') }));
    expect(() => readCsv(Buffer.from(big))).toThrow(expect.objectContaining({ code: 'too_large' }));
    // Multi-byte characters count by their bytes.
    expect(() => readCsv('é'.repeat(MAX_CSV_BYTES / 2 + 1))).toThrow(expect.objectContaining({ code: 'too_large' }));
  });

  it('refuse more rows than the row limit, and accept exactly as many', () => {
    expect(readCsv('1\n'.repeat(MAX_CSV_ROWS)).rows).toHaveLength(MAX_CSV_ROWS);
    expect(() => readCsv('1\n'.repeat(MAX_CSV_ROWS + 1))).toThrow(
      expect.objectContaining({ code: 'too_many_rows', message: expect.stringContaining(String(MAX_CSV_ROWS)) }),
    );
  });

  it('refuse a row that is too long or too wide', () => {
    expect(() => readCsv(`a,${'b'.repeat(MAX_CSV_ROW_CHARS + 1)}\n`)).toThrow(
      expect.objectContaining({ code: 'unreadable', message: expect.stringContaining('longer') }),
    );
    expect(() => readCsv(`${'a,'.repeat(MAX_CSV_COLUMNS)}a\n`)).toThrow(
      expect.objectContaining({ code: 'unreadable', message: expect.stringContaining('columns') }),
    );
    expect(readCsv(`${'a,'.repeat(MAX_CSV_COLUMNS - 1)}a\n`).rows[0]!.cells).toHaveLength(MAX_CSV_COLUMNS);
    // Separators inside a quoted field, even one spanning lines, are no columns; the line count goes on through it.
    const quoted = `"${'a,\n'.repeat(MAX_CSV_COLUMNS)}",b\nc,d\n`;
    expect(readCsv(quoted).rows.map((r) => r.line)).toEqual([1, MAX_CSV_COLUMNS + 2]);
    expect(() => readCsv(`x,y\r\n"q""",${'a,'.repeat(MAX_CSV_COLUMNS)}\r\n`)).toThrow(expect.objectContaining({ message: expect.stringContaining('Line 2 ') }));
  });
});

describe('reading back what a CSV writer wrote', () => {
  const cell = fc.string({
    unit: fc.constantFrom('a', 'Z', '7', ' ', ',', ';', '\t', '"', '\n', '\r', '\r\n', 'é', '€', '\u{1F600}', "'", '=', '.'),
    maxLength: 12,
  });
  const table = fc
    .integer({ min: 1, max: 6 })
    .chain((width) => fc.array(fc.array(cell, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 8 }));

  it('gives back every non-blank row, cell for cell, with any separator and line end', () => {
    fc.assert(
      fc.property(table, fc.constantFrom<CsvDelimiter>(',', ';', '\t'), fc.constantFrom('\n', '\r\n', '\r'), (rows, delimiter, newline) => {
        const text = writeCsv(rows, delimiter, newline);
        const expected = rows.filter((r) => r.some((c) => c.trim() !== ''));
        expect(cells(text, delimiter)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('the cost of hostile files', () => {
  const MiB = 1 << 20;
  const size = 5 * MiB;
  const row = '10/02/2026,"STARBUCKS STORE 123, SEATTLE WA",-4.50,1234.56\n';
  const plainFile = 'Date,Description,Amount,Balance\n' + row.repeat(Math.floor(size / row.length));
  const quotedRow = `10/02/2026,"${'""'.repeat(200)}",-4.50,1.00\n`;
  /** About 5 MB each, built to make a tokeniser or the layout search do more than linear work. */
  const hostile: Record<string, string> = {
    'only quotes': '"'.repeat(size),
    'an odd number of quotes': '"'.repeat(size + 1),
    'one huge line': 'x'.repeat(size),
    'one huge quoted field': `"${'x,\n'.repeat(size / 3)}"`,
    'a million separators': ','.repeat(1_000_000).padEnd(size, ','),
    'separators between letters': 'a,'.repeat(size / 2),
    'semicolons and tabs': ';\t'.repeat(size / 2),
    'only line breaks': '\n'.repeat(size),
    'quoted line breaks': '"\n'.repeat(size / 2),
    'many label rows': 'a,b\n'.repeat(size / 4),
    'many date-only rows': '10/02/2026\n'.repeat(size / 11),
    'rows of doubled quotes': 'Date,Description,Amount,Balance\n' + quotedRow.repeat(Math.floor(size / quotedRow.length)),
  };

  const read = orRefused(readCsvStatement, StatementFileError, (error) => `refused: ${error.message}`);
  /** The best of three reads; the hostile ones stop at a read under half the limit (1.5 times the plain file). */
  function cost(text: string, settledBelow = 0): { ms: number; outcome: string } {
    const { ms, result } = bestTime(read, text, 3, settledBelow);
    return { ms, outcome: typeof result === 'string' ? result : `read ${result.transactions.length} transactions` };
  }

  let plain: number;
  beforeAll(() => {
    plain = cost(plainFile).ms;
  }, 60_000);

  it.each(Object.keys(hostile))('%s: refused or read in at most three times the time of a plain file of the same size', (name) => {
    const { ms, outcome } = cost(hostile[name]!, 1.5 * plain);
    expect(ms / plain, `${name}: ${outcome}; ${ms.toFixed(0)} ms, plain ${plain.toFixed(0)} ms`).toBeLessThan(3);
  });

  it('refuses the ones that are no bank export', () => {
    for (const name of ['only quotes', 'one huge line', 'a million separators', 'only line breaks', 'quoted line breaks']) {
      expect(() => readCsvStatement(hostile[name]!), name).toThrow(StatementFileError);
      expect(() => detectLayout(hostile[name]!), name).toThrow(StatementFileError);
    }
  });
});
