/**
 * The closing balances a statement file states for an account, one per day: the account's history takes each as the
 * balance of its day (modules/aggregation/balances.service.ts). Kept in the account as the reader finds them.
 */
import type { StatementAccount } from './types.js';

const DAY = 86_400;

/**
 * Notes a balance the file states for the account at the end of `date`'s (UTC) day; a later one of the same day, in
 * the order the reader notes them, replaces it. Readers note them in date order or day by day, so the same day is
 * found at the end of the list.
 */
export function noteClosingBalance(account: StatementAccount, date: number, balance: number): void {
  const list = (account.closingBalances ??= []);
  const day = Math.floor(date / DAY);
  for (let i = list.length - 1; i >= 0; i--) {
    if (Math.floor(list[i]!.date / DAY) === day) {
      list[i] = { date, balance };
      return;
    }
  }
  list.push({ date, balance });
}
