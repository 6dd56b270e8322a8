/**
 * Calendar arithmetic on UTC days and months. A day is `floor(epochSeconds / 86400)`; a month index is
 * `year * 12 + monthIndex0`. The test bank defines its data on these absolute units, never on "now".
 */

export const SECONDS_PER_DAY = 86_400;

export function dayOf(epochSeconds: number): number {
  return Math.floor(epochSeconds / SECONDS_PER_DAY);
}

export function dayStart(day: number): number {
  return day * SECONDS_PER_DAY;
}

export function monthOfDay(day: number): number {
  const d = new Date(day * SECONDS_PER_DAY * 1000);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

export function monthIndex(year: number, month1: number): number {
  return year * 12 + (month1 - 1);
}

/** Parses `YYYY-MM` into a month index. */
export function parseMonth(text: string): number {
  const match = /^(\d{4})-(\d{2})$/.exec(text);
  if (!match) throw new Error(`Bad month ${text}`);
  return monthIndex(Number(match[1]), Number(match[2]));
}

export function yearOfMonth(month: number): number {
  return Math.floor(month / 12);
}

/** 1..12 */
export function monthOfYear(month: number): number {
  return (month % 12) + 1;
}

const firstDays = new Map<number, number>();

/** The first day (day number) of a month index. */
export function firstDayOfMonth(month: number): number {
  let day = firstDays.get(month);
  if (day === undefined) {
    day = Math.floor(Date.UTC(yearOfMonth(month), month % 12, 1) / 1000 / SECONDS_PER_DAY);
    firstDays.set(month, day);
  }
  return day;
}

export function daysInMonth(month: number): number {
  return firstDayOfMonth(month + 1) - firstDayOfMonth(month);
}

/** The day number of day-of-month `dom` (1-based, clamped to the month's length). */
export function dayInMonth(month: number, dom: number): number {
  return firstDayOfMonth(month) + Math.min(Math.max(dom, 1), daysInMonth(month)) - 1;
}

/** 0 = Sunday ... 6 = Saturday. Day 0 (1970-01-01) was a Thursday. */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

export function isWeekend(day: number): boolean {
  const w = weekday(day);
  return w === 0 || w === 6;
}

/**
 * Moves a weekend date to a business day inside the same month: forward in the first half of the month,
 * backward in the second, so a scheduled payment never leaves its month.
 */
export function businessDayInMonth(month: number, dom: number): number {
  let day = dayInMonth(month, dom);
  const step = dom <= 15 ? 1 : -1;
  while (isWeekend(day)) day += step;
  return day;
}

const ymdCache = new Map<number, string>();

/** `YYYYMMDD` of a day number. */
export function ymd(day: number): string {
  let text = ymdCache.get(day);
  if (text === undefined) {
    const d = new Date(day * SECONDS_PER_DAY * 1000);
    text = `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
    if (ymdCache.size > 50_000) ymdCache.clear();
    ymdCache.set(day, text);
  }
  return text;
}

/** Parses `YYYY-MM-DD` into a day number. */
export function parseDay(text: string): number {
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new Error(`Bad date ${text}`);
  return ms / 1000 / SECONDS_PER_DAY;
}
