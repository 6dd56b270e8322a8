import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatOfxDate, parseOfxDate, utcDayStart } from '../../src/connectors/ofx/dates.js';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('parseOfxDate', () => {
  it.each([
    ['20240105', '2024-01-05T12:00:00Z'],
    ['202401051230', '2024-01-05T12:30:00Z'],
    ['20240105123045', '2024-01-05T12:30:45Z'],
    ['20240105123045.123', '2024-01-05T12:30:45Z'],
    ['20240105123045.5', '2024-01-05T12:30:45Z'],
    ['20240105123045[-5:EST]', '2024-01-05T17:30:45Z'],
    ['20240105123045.000[-5:EST]', '2024-01-05T17:30:45Z'],
    ['20240105123045 [-5:EST]', '2024-01-05T17:30:45Z'],
    ['20240105120000[+5.30:IST]', '2024-01-05T06:30:00Z'],
    ['20240105120000[+5.5:IST]', '2024-01-05T06:30:00Z'],
    ['20240105120000[+5.45:NPT]', '2024-01-05T06:15:00Z'],
    ['20240105120000[-3.30:NST]', '2024-01-05T15:30:00Z'],
    ['20240105120000[-3.50]', '2024-01-05T15:30:00Z'],
    ['20240105120000[+9.75]', '2024-01-05T02:15:00Z'],
    ['20240105000000[0:GMT]', '2024-01-05T00:00:00Z'],
    ['20240105000000[-0:GMT]', '2024-01-05T00:00:00Z'],
    ['20240105123045[-7]', '2024-01-05T19:30:45Z'],
    ['20240105123045[+2:CEST]', '2024-01-05T10:30:45Z'],
    ['20240105120000[EDT]', '2024-01-05T16:00:00Z'],
    ['20240105120000[gmt]', '2024-01-05T12:00:00Z'],
    ['20240105120000[]', '2024-01-05T12:00:00Z'],
    ['  20240105  ', '2024-01-05T12:00:00Z'],
    ['20240229', '2024-02-29T12:00:00Z'],
    ['20241231235960', '2024-12-31T23:59:59Z'],
  ])('reads %s', (text, iso) => {
    expect(parseOfxDate(text)).toBe(at(iso));
  });

  it('reads a date alone as noon UTC of that day, whatever zone follows it', () => {
    expect(parseOfxDate('20240105[-5:EST]')).toBe(at('2024-01-05T12:00:00Z'));
    expect(parseOfxDate('20240105[+13:NZDT]')).toBe(at('2024-01-05T12:00:00Z'));
  });

  it.each([
    '',
    '2024010',
    '2024-01-05',
    '2024010512',
    '20240105123',
    '20230229',
    '20241301',
    '20240100',
    '20240132',
    '20240105240000',
    '20240105126000',
    '20240105123061',
    '20240105123045[-5:EST',
    '20240105123045[abc]',
    '20240105123045[+15]',
    '20240105123045[+5.99]',
    '20240105123045.1234567',
    '18990101',
    'NaN',
  ])('refuses %j', (text) => {
    expect(parseOfxDate(text)).toBeUndefined();
  });

  it('undefined stays undefined', () => {
    expect(parseOfxDate(undefined)).toBeUndefined();
  });
});

describe('formatOfxDate', () => {
  it('writes the UTC day and the full GMT instant', () => {
    const t = at('2025-03-09T07:05:03Z');
    expect(formatOfxDate(t, 'date')).toBe('20250309');
    expect(formatOfxDate(t, 'datetime')).toBe('20250309070503.000[0:GMT]');
    expect(formatOfxDate(t)).toBe('20250309070503.000[0:GMT]');
  });

  it('reads back what it writes, to the second', () => {
    fc.assert(
      fc.property(fc.integer({ min: at('1970-01-01T00:00:00Z'), max: at('2099-12-31T23:59:59Z') }), (t) => {
        expect(parseOfxDate(formatOfxDate(t, 'datetime'))).toBe(t);
        expect(parseOfxDate(formatOfxDate(t, 'date'))).toBe(utcDayStart(t) + 12 * 3600);
      }),
    );
  });

  it('reads every zone offset the same instant', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: at('2000-01-01T00:00:00Z'), max: at('2040-01-01T00:00:00Z') }),
        fc.integer({ min: -12, max: 14 }),
        fc.constantFrom(0, 30, 45),
        (t, hours, minutes) => {
          const offset = (hours < 0 ? -1 : 1) * (Math.abs(hours) * 3600 + minutes * 60);
          const local = formatOfxDate(t + offset, 'datetime').slice(0, 18);
          const sign = hours < 0 ? '-' : '+';
          const zone = minutes === 0 ? `${sign}${Math.abs(hours)}` : `${sign}${Math.abs(hours)}.${minutes}`;
          expect(parseOfxDate(`${local}[${zone}:XYZ]`)).toBe(t);
        },
      ),
    );
  });
});
