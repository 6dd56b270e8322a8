/**
 * Which statements an account has (docs/statements.md, "Statement periods"): the periods uploaded statement files gave
 * it, and calendar months where no such period falls, from the month of its first stored transaction to the last
 * month that has ended by the customer's clock, and no later than the month of its last transaction. Latest first:
 * index 1 is the latest, up to MAX_STATEMENT_INDEX.
 */
import { MAX_STATEMENT_INDEX } from '../../contract/schemas/bank-statements.js';

/** A statement's period: the first second of its first day to the last second of its last day (UTC). */
export interface StatementPeriod {
  start: number;
  end: number;
  /** The kept statement file that gave the period; none for a calendar month. */
  fileId?: string | undefined;
}

/** The first second of the UTC month holding an epoch second, `offset` months later. */
function monthStart(epochSeconds: number, offset = 0): number {
  const d = new Date(epochSeconds * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1) / 1000;
}

const overlaps = (a: StatementPeriod, b: StatementPeriod) => a.start <= b.end && b.start <= a.end;

/**
 * The account's statements, latest first (by end, then start), at most MAX_STATEMENT_INDEX: `filePeriods` as they are,
 * and the calendar months between the account's first and last transaction dates that have ended by `now` and
 * overlap none of them.
 */
export function statementPeriods(
  now: number,
  transactions: { oldest: number | null; last: number | null },
  filePeriods: readonly StatementPeriod[],
): StatementPeriod[] {
  const periods: StatementPeriod[] = [...filePeriods];
  if (transactions.oldest !== null && transactions.last !== null) {
    // The last month that has ended, or the month of the last transaction when that is earlier.
    let month = Math.min(monthStart(now, -1), monthStart(transactions.last));
    const first = monthStart(transactions.oldest);
    for (let n = 0; month >= first && n < MAX_STATEMENT_INDEX; month = monthStart(month, -1)) {
      const period = { start: month, end: monthStart(month, 1) - 1 };
      if (filePeriods.some((f) => overlaps(f, period))) continue;
      periods.push(period);
      n++;
    }
  }
  return periods.sort((a, b) => b.end - a.end || b.start - a.start).slice(0, MAX_STATEMENT_INDEX);
}

/** The asset id of the statement of a period: the account and the period's days, so it names the same statement each time. */
export function statementAssetId(accountId: number, period: StatementPeriod): string {
  const day = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().slice(0, 10).replaceAll('-', '');
  return `statement-${accountId}-${day(period.start)}-${day(period.end)}`;
}

/** The account and period days an asset id of statementAssetId names; undefined for any other id. */
export function parseStatementAssetId(id: string): { accountId: number; startDay: string; endDay: string } | undefined {
  const match = /^statement-(\d{1,18})-(\d{8})-(\d{8})$/.exec(id);
  if (!match) return undefined;
  return { accountId: Number(match[1]), startDay: match[2]!, endDay: match[3]! };
}

/** The statement indexes a comma-separated list asks for, each 1 to MAX_STATEMENT_INDEX; undefined when it is not one. */
export function parseStatementIndexes(list: string): number[] | undefined {
  const parts = list.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^\d{1,3}$/.test(p))) return undefined;
  const indexes = parts.map(Number);
  return indexes.every((i) => i >= 1 && i <= MAX_STATEMENT_INDEX) ? indexes : undefined;
}
