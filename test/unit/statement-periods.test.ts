import { describe, expect, it } from 'vitest';
import { pdfText } from '../../src/modules/statements/pdf-text.js';
import { parseStatementAssetId, parseStatementIndexes, statementAssetId, statementPeriods } from '../../src/modules/statements/periods.rules.js';

const at = (iso: string) => Date.parse(iso) / 1000;
const days = (periods: { start: number; end: number }[]) =>
  periods.map((p) => `${new Date(p.start * 1000).toISOString().slice(0, 10)}..${new Date(p.end * 1000).toISOString().slice(0, 10)}`);

describe('statement periods', () => {
  it('are the calendar months that have ended, latest first, from the month of the first transaction', () => {
    const periods = statementPeriods(at('2026-04-15T12:00:00Z'), { oldest: at('2026-01-20T00:00:00Z'), last: at('2026-04-14T00:00:00Z') }, []);
    expect(days(periods)).toEqual(['2026-03-01..2026-03-31', '2026-02-01..2026-02-28', '2026-01-01..2026-01-31']);
    expect(periods[0]!.end).toBe(at('2026-04-01T00:00:00Z') - 1);
  });

  it('end with the month of the last transaction, and there are none without transactions', () => {
    expect(days(statementPeriods(at('2026-09-15T00:00:00Z'), { oldest: at('2026-01-05T00:00:00Z'), last: at('2026-02-10T00:00:00Z') }, []))).toEqual([
      '2026-02-01..2026-02-28',
      '2026-01-01..2026-01-31',
    ]);
    expect(statementPeriods(at('2026-09-15T00:00:00Z'), { oldest: null, last: null }, [])).toEqual([]);
  });

  it("take an uploaded file's period in place of the months it overlaps, and stop at 24", () => {
    const file = { start: at('2026-02-15T00:00:00Z'), end: at('2026-03-14T23:59:59Z'), fileId: 'file-1' };
    const periods = statementPeriods(at('2026-05-02T00:00:00Z'), { oldest: at('2020-01-01T00:00:00Z'), last: at('2026-05-01T00:00:00Z') }, [file]);
    expect(days(periods).slice(0, 3)).toEqual(['2026-04-01..2026-04-30', '2026-02-15..2026-03-14', '2026-01-01..2026-01-31']);
    expect(periods[1]!.fileId).toBe('file-1');
    expect(periods).toHaveLength(24);
  });

  it('name their statement by account and days, and read such names back', () => {
    const id = statementAssetId(5011000001, { start: at('2026-03-01T00:00:00Z'), end: at('2026-03-31T23:59:59Z') });
    expect(id).toBe('statement-5011000001-20260301-20260331');
    expect(parseStatementAssetId(id)).toEqual({ accountId: 5011000001, startDay: '20260301', endDay: '20260331' });
    for (const other of ['statement-1-2-3', 'file-x', 'statement-x-20260301-20260331', '']) expect(parseStatementAssetId(other)).toBeUndefined();
  });

  it('are asked for by comma-separated indexes from 1 to 24', () => {
    expect(parseStatementIndexes('1')).toEqual([1]);
    expect(parseStatementIndexes('1, 2,24')).toEqual([1, 2, 24]);
    for (const bad of ['', '0', '25', '1,,2', '1;2', '-1', 'x', '1.5', '0001']) expect(parseStatementIndexes(bad), bad).toBeUndefined();
  });
});

describe('text in a statement', () => {
  it('keeps what the standard fonts show, transliterates Greek and Cyrillic, and writes ? for the rest', () => {
    expect(pdfText('Café Crème 5€ – “ok”')).toBe('Café Crème 5€ – “ok”');
    expect(pdfText('Καφές στο κέντρο')).toBe('Kafes sto kentro');
    expect(pdfText('Москва Щука')).toBe('Moskva Shchuka');
    expect(pdfText('Łódź Őrs')).toBe('Lódz Ors');
    expect(pdfText('PAYROLL 🎉 ACME ❤️')).toBe('PAYROLL ? ACME ?');
    expect(pdfText('北京')).toBe('??');
    expect(pdfText('tab\there\nline')).toBe('tab here line');
  });
});
