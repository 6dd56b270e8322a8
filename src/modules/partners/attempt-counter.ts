import { sql } from 'kysely';

/**
 * A count of authentication attempts in progress, kept in two columns of a row: the count, and when it last rose
 * from zero. A count that has not been back to zero since `staleBefore` holds a reservation nobody decided (a
 * process that died mid-check), so it is taken as zero. The partner's API lock-out and the dashboard sign-in
 * throttle both reserve this way.
 */
export function attemptCounter(countColumn: string, sinceColumn: string) {
  const count = sql.ref(countColumn);
  const since = sql.ref(sinceColumn);
  const inProgress = (staleBefore: number) => sql<number>`(case when ${since} < ${staleBefore} then 0 else ${count} end)`;
  return {
    inProgress,
    /** The two columns' values once one more attempt is reserved. */
    reserved: (staleBefore: number, now: number) => ({
      count: sql<number>`${inProgress(staleBefore)} + 1`,
      since: sql<number>`case when ${inProgress(staleBefore)} = 0 then ${now} else ${since} end`,
    }),
    /** The count once one attempt is decided or given back. */
    released: sql<number>`(case when ${count} > 0 then ${count} - 1 else 0 end)`,
  };
}
