import { describe, expect, it } from 'vitest';
import { readCsv } from '../../src/connectors/statements/csv.js';
import { findSavedMapping, layoutFingerprint } from '../../src/connectors/statements/fingerprint.js';
import { readCsvStatement } from '../../src/connectors/statements/import.js';
import type { ColumnMapping } from '../../src/connectors/statements/mapping.js';

/** The fingerprint of a file whose header is its first row (or, with -1, of a file without one). */
const fingerprint = (text: string, headerRow = 0) => layoutFingerprint(readCsv(text), headerRow);

const POSTED = 'Posted;Payee;Out;In\n03.11.2026;Bakery Lindner;4,20;\n04.11.2026;Salary;;2.450,00\n';
const CHASE_CARD =
  'Transaction Date,Post Date,Description,Category,Type,Amount,Memo\n' +
  '10/30/2026,10/31/2026,UBER TRIP,Travel,Sale,-23.45,\n' +
  '10/28/2026,10/29/2026,PAYMENT THANK YOU,,Payment,500.00,\n';

describe('the fingerprint of a CSV layout', () => {
  it('is the same for the same header with other case, spacing, punctuation and other rows', () => {
    const other = '  POSTED ; payee;OUT ;in;;\n01.12.2026;Kiosk;1,50;\n';
    expect(fingerprint(other)).toBe(fingerprint(POSTED));
    expect(fingerprint(POSTED)).toMatch(/^header\.4\.semicolon\.[0-9a-f]{32}$/);
  });

  it('differs for another separator, another column, other names or another order', () => {
    const base = fingerprint(POSTED);
    expect(fingerprint(POSTED.replaceAll(';', ','))).not.toBe(base);
    expect(fingerprint(POSTED.replace('Posted;Payee;Out;In', 'Posted;Payee;Out;In;Balance'))).not.toBe(base);
    expect(fingerprint(POSTED.replace('Payee', 'Merchant'))).not.toBe(base);
    expect(fingerprint(POSTED.replace('Out;In', 'In;Out'))).not.toBe(base);
  });

  it('of a file without a header is its width and the kind of each column, whatever the rows say', () => {
    const a = '10/01/2026,-12.50,*,,COFFEE ROASTERS\n10/02/2026,2400.00,*,,PAYROLL\n';
    const b = '11/05/2026,-8.00,*,,BAKERY\n11/06/2026,-60.10,*,,GROCER\n11/07/2026,15.00,*,,REFUND\n';
    expect(fingerprint(b, -1)).toBe(fingerprint(a, -1));
    expect(fingerprint(a, -1)).toMatch(/^headerless\.5\.comma\./);
    // The amount and the description swapped, or a column more: another layout.
    expect(fingerprint('10/01/2026,COFFEE,*,,-12.50\n', -1)).not.toBe(fingerprint(a, -1));
    expect(fingerprint('10/01/2026,-12.50,*,,COFFEE,x\n', -1)).not.toBe(fingerprint(a, -1));
  });
});

describe('a saved mapping', () => {
  const mapping: ColumnMapping = { date: 'Posted', description: 'Payee', debit: 'Out', credit: 'In', headerRow: 0 };
  const saved = [{ fingerprint: fingerprint(POSTED), mapping }];

  it('is found for a file of its layout, its header where this file has it', () => {
    const lower = `Account;DE12 3456\nPeriod;November\n\n${POSTED}`;
    expect(findSavedMapping(readCsv(lower), saved)).toEqual({ fingerprint: saved[0]!.fingerprint, mapping: { ...mapping, headerRow: 2 } });
    expect(findSavedMapping(readCsv(POSTED.replaceAll(';', ',').replaceAll('4,20', '4.20').replace('2.450,00', '2450.00')), saved)).toBeUndefined();
  });

  it('reads a file of its layout, which detection could not, and says so', () => {
    const read = readCsvStatement(`Posted;Payee;Out;In\n05.12.2026;Bookshop;12,00;\n`, { savedMappings: saved });
    expect(read.transactions.map((t) => [t.description, t.amount])).toEqual([['Bookshop', -12]]);
    expect(read.layout).toMatchObject({ source: 'saved', name: 'custom', fingerprint: saved[0]!.fingerprint });
    expect(() => readCsvStatement(`Posted;Payee;Out;In\n05.12.2026;Bookshop;12,00;\n`)).toThrow(/say which column/);
  });

  it("wins over a bank's built-in layout (a corrected sign), and a mapping given with the file wins over it", () => {
    const built = readCsvStatement(CHASE_CARD);
    expect(built.layout).toMatchObject({ source: 'built-in', name: 'chase-card' });
    expect(built.transactions.map((t) => t.amount)).toEqual([-23.45, 500]);
    const negated = { date: 'Transaction Date', description: 'Description', amount: 'Amount', negate: true };
    const fromSaved = readCsvStatement(CHASE_CARD, { savedMappings: [{ fingerprint: built.layout!.fingerprint, mapping: negated }] });
    expect(fromSaved.layout?.source).toBe('saved');
    expect(fromSaved.transactions.map((t) => t.amount)).toEqual([23.45, -500]);
    const given = readCsvStatement(CHASE_CARD, {
      mapping: { ...negated, negate: false },
      savedMappings: [{ fingerprint: built.layout!.fingerprint, mapping: negated }],
    });
    expect(given.layout).toMatchObject({ source: 'given', fingerprint: built.layout!.fingerprint, mapping: { negate: false, headerRow: 0 } });
    expect(given.transactions.map((t) => t.amount)).toEqual([-23.45, 500]);
  });

  it('of another layout is not used, and a file of names detection knows is detected', () => {
    const read = readCsvStatement('Date,Description,Amount\n2026-11-02,Grocer,-31.10\n', { savedMappings: saved });
    expect(read.layout).toMatchObject({ source: 'detected', name: 'generic' });
  });
});
