/** UTC day and month arithmetic for the analyses: a day is `floor(epoch / 86400)`, a month is `year * 12 + month0`. */

export const DAY_SECONDS = 86_400;

export function dayOf(epochSeconds: number): number {
  return Math.floor(epochSeconds / DAY_SECONDS);
}

export function dayText(day: number): string {
  return new Date(day * DAY_SECONDS * 1000).toISOString().slice(0, 10);
}

export function dayOfText(text: string): number {
  return Math.floor(Date.parse(`${text}T00:00:00Z`) / 1000 / DAY_SECONDS);
}

export function monthOfDay(day: number): number {
  const d = new Date(day * DAY_SECONDS * 1000);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

export function firstDayOfMonth(month: number): number {
  return Math.floor(Date.UTC(Math.floor(month / 12), month % 12, 1) / 1000 / DAY_SECONDS);
}

export function lastDayOfMonth(month: number): number {
  return firstDayOfMonth(month + 1) - 1;
}

/** The epoch second a month starts (the reference's `month` fields). */
export function monthStartEpoch(month: number): number {
  return firstDayOfMonth(month) * DAY_SECONDS;
}

/** The analysis window in whole days: from the day of `fromDate` to the day of `now`, both included. */
export interface DayWindow {
  first: number;
  last: number;
}

export function windowOf(fromDate: number, now: number): DayWindow {
  return { first: dayOf(fromDate), last: dayOf(now) };
}

/** The calendar months lying wholly inside the window, oldest first (the reference's "complete calendar months"). */
export function completeMonths(window: DayWindow): number[] {
  const months: number[] = [];
  for (let m = monthOfDay(window.first); firstDayOfMonth(m) <= window.last; m++) {
    if (firstDayOfMonth(m) >= window.first && lastDayOfMonth(m) <= window.last) months.push(m);
  }
  return months;
}

/** The calendar months the window touches, each clipped to the window. */
export function calendarPeriods(window: DayWindow): DayWindow[] {
  const periods: DayWindow[] = [];
  for (let m = monthOfDay(window.first); firstDayOfMonth(m) <= window.last; m++) {
    periods.push({ first: Math.max(window.first, firstDayOfMonth(m)), last: Math.min(window.last, lastDayOfMonth(m)) });
  }
  return periods;
}

/** Thirty-day periods counted back from the window's last day; the oldest may be shorter. Oldest first. */
export function rollingPeriods(window: DayWindow, length = 30): DayWindow[] {
  const periods: DayWindow[] = [];
  for (let last = window.last; last >= window.first; last -= length) periods.unshift({ first: Math.max(window.first, last - length + 1), last });
  return periods;
}
