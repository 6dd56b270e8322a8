/**
 * OFX dates: `YYYYMMDD`, `YYYYMMDDHHMM`, `YYYYMMDDHHMMSS`, each time form optionally with `.XXX` milliseconds, and
 * any of them with a time-zone suffix `[offset:NAME]`, `[offset]` or `[NAME]`. The offset is in hours and may have a
 * fraction: `[+5.30:IST]`, `[-3.5]`, `[+5.45:NPT]`.
 *
 * Without a zone the specification means GMT. A date without a time is a calendar day, not an instant: it is read as
 * noon UTC, so the day stays the same in every time zone from UTC-11 to UTC+11 (the statement-file contract asks
 * the same of uploaded files).
 */

const DAY = 86_400;

/** Zones servers write as names only; anything else without an offset is refused. */
const ZONE_NAMES: ReadonlyMap<string, number> = new Map([
  ['GMT', 0],
  ['UTC', 0],
  ['Z', 0],
  ['EST', -5],
  ['EDT', -4],
  ['CST', -6],
  ['CDT', -5],
  ['MST', -7],
  ['MDT', -6],
  ['PST', -8],
  ['PDT', -7],
  ['AKST', -9],
  ['AKDT', -8],
  ['HST', -10],
]);

const DATE_FORM = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?(?:\.(\d{1,6}))?)? ?(?:\[([^\]]{0,40})\])?$/;
const OFFSET_FORM = /^([+-]?)(\d{1,2})(?:\.(\d{1,2}))?(?::([A-Za-z][A-Za-z0-9+_/-]{0,30}))?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Minutes of a fractional hour offset. One digit is tenths of an hour (`5.5` = 5:30); two digits are minutes
 * (`5.30`, `5.45`) unless they are a quarter written as a decimal (`.25`, `.50`, `.75`), which no zone has as minutes.
 */
function fractionMinutes(fraction: string): number | undefined {
  if (fraction.length === 1) return Number(fraction) * 6;
  const n = Number(fraction);
  if (n === 25 || n === 50 || n === 75) return (n * 60) / 100;
  return n < 60 ? n : undefined;
}

/** The zone's offset from UTC in seconds, or undefined when the suffix cannot be read. */
function zoneOffsetSeconds(zone: string): number | undefined {
  const text = zone.trim();
  if (text === '') return 0;
  const named = ZONE_NAMES.get(text.toUpperCase());
  if (named !== undefined) return named * 3600;
  const m = OFFSET_FORM.exec(text);
  if (!m) return undefined;
  const hours = Number(m[2]);
  const minutes = m[3] === undefined ? 0 : fractionMinutes(m[3]);
  if (minutes === undefined || hours > 14) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  return sign * (hours * 3600 + minutes * 60);
}

/**
 * Epoch seconds of an OFX date, or undefined when it is not one (wrong length, impossible day or time, unreadable
 * zone). Milliseconds are dropped: the contract counts whole seconds.
 */
export function parseOfxDate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = DATE_FORM.exec(value.trim());
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const dateOnly = m[4] === undefined;
  const hour = dateOnly ? 12 : Number(m[4]);
  const minute = dateOnly ? 0 : Number(m[5]);
  // A leap second reads as the last second of its minute.
  const second = m[6] === undefined ? 0 : Math.min(Number(m[6]), 59);
  if (hour > 23 || minute > 59 || (m[6] !== undefined && Number(m[6]) > 60)) return undefined;
  const offset = m[8] === undefined || dateOnly ? 0 : zoneOffsetSeconds(m[8]);
  if (offset === undefined) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second) / 1000 - offset;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/**
 * An OFX date for a request: `date` is the UTC calendar day (`YYYYMMDD`), `datetime` the full instant in GMT
 * (`YYYYMMDDHHMMSS.XXX[0:GMT]`), which every version accepts.
 */
export function formatOfxDate(epochSeconds: number, form: 'date' | 'datetime' = 'datetime'): string {
  const d = new Date(Math.floor(epochSeconds) * 1000);
  const day = `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
  if (form === 'date') return day;
  return `${day}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}.000[0:GMT]`;
}

/** The start (00:00 UTC) of the day holding an instant. */
export function utcDayStart(epochSeconds: number): number {
  return Math.floor(epochSeconds / DAY) * DAY;
}

export const SECONDS_PER_DAY = DAY;
