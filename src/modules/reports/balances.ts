/** Daily balance arithmetic the reports share: the balance on a day, and the average daily balance over days. */
import type { DailyBalance } from './input.js';

/** Seconds in a day. */
export const DAY = 86_400;
const DAY_MS = DAY * 1000;

/** Rounds to cents, as every amount a report shows. */
export function cents(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The UTC day (YYYY-MM-DD) of an epoch second. */
export function dayOf(epochSeconds: number): string {
  return new Date(Math.floor(epochSeconds / 86_400) * DAY_MS).toISOString().slice(0, 10);
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** The balance on a day: the latest stored on or before it (balances oldest first), undefined before the first. */
export function balanceOn(balances: readonly DailyBalance[], day: string): number | undefined {
  let found: number | undefined;
  for (const b of balances) {
    if (b.day > day) break;
    found = b.balance;
  }
  return found;
}

/**
 * The mean of the daily balances from `fromDay` to `toDay` (inclusive): each day's balance is the latest stored on or
 * before it, and days before the first stored balance are left out. Undefined when no day has a balance.
 */
export function averageDailyBalance(balances: readonly DailyBalance[], fromDay: string, toDay: string): number | undefined {
  let i = 0;
  let current: number | undefined;
  while (i < balances.length && balances[i]!.day < fromDay) current = balances[i++]!.balance;
  let sum = 0;
  let days = 0;
  for (let day = fromDay; day <= toDay; day = nextDay(day)) {
    while (i < balances.length && balances[i]!.day <= day) current = balances[i++]!.balance;
    if (current === undefined) continue;
    sum += current;
    days += 1;
  }
  return days === 0 ? undefined : cents(sum / days);
}
