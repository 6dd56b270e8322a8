import { sql } from 'kysely';
import { isPostgresExecutor } from '../../outbox/wake.js';
import { inTransaction, type Executor } from '../../platform/db/database.js';
import { refreshLeaseFree } from './logins.repository.js';
import type { InstitutionLoginRow } from './table.js';

export interface LoginClaim {
  /** Holds the claimed logins' refresh leases; updateLeasedLogin checks it. */
  owner: string;
  /** At most this many logins. */
  limit: number;
  /** Service clock, epoch seconds. */
  now: number;
  leaseUntil: number;
  /** Refreshes of one institution's logins in flight at once, the claimed ones included, beyond which none is claimed. */
  perInstitution: number;
}

/**
 * Claims due logins: scheduled ones whose time has come and whose refresh lease is free (no refresh runs, or one
 * ran out because its process died), soonest due first, by taking that lease for `owner`: the lease every refresh
 * takes, so a claimed login is refreshed by its claimer alone, and a manual refresh of it meanwhile waits for
 * that refresh's result (refresh.service.ts).
 *
 * An institution's logins are claimed only while fewer than `perInstitution` refreshes of its logins are in flight
 * (held leases, whoever took them; statement-file logins call no institution and do not count). The claim reads the
 * first `limit` due logins of institutions below their cap, then keeps of each institution as many as it has room
 * for, so it may return fewer than `limit` while more are due: claiming again then goes on past the capped
 * institution. A due login of a capped institution stays unclaimed, holding no worker's slot, and being the soonest
 * due of its institution it is the first claimed once the institution has room.
 *
 * Institutions with no refresh in flight go first: a slow institution's backlog, due before everyone else's, would
 * otherwise take back each slot its refreshes free, and with a slow and a dead institution at their caps no other
 * login would be refreshed until both backlogs were done (docs/benchmarks.md, "Scheduled refreshes at scale").
 *
 * PostgreSQL: claims take turns (a transaction-level advisory lock, keyed by schema), so concurrent workers count
 * each other's claims and keep the cap between them; FOR UPDATE SKIP LOCKED passes over a login a refresh is taking
 * at that moment. SQLite: each UPDATE ... RETURNING statement runs under the database's write lock, so another
 * process cannot claim between its count and its update.
 */
export async function claimDueLogins(db: Executor, claim: LoginClaim): Promise<InstitutionLoginRow[]> {
  const postgres = isPostgresExecutor(db);
  const claimFrom = async (ex: Executor, idleOnly: boolean, limit: number) => {
    // Refreshes in flight per institution: held leases, read from the partial index of leased logins alone.
    const leased = () =>
      ex.selectFrom('institution_logins').where('refresh_lease_until', '>=', claim.now).where('source', '<>', 'statement-file').groupBy('institution_id');
    const inFlight = leased().select((eb) => ['institution_id', eb.fn.countAll<number>().as('in_flight')]);
    // Institutions kept out: those at their cap, or (idle first) any with a refresh in flight.
    const busy = idleOnly
      ? leased().select('institution_id')
      : leased()
          .select('institution_id')
          .having((eb) => eb.fn.countAll(), '>=', claim.perInstitution);
    // The soonest due free logins of the other institutions, in due order (the due index).
    const candidates = ex
      .selectFrom('institution_logins')
      .select(['id', 'institution_id', 'refresh_due_at'])
      .where('refresh_due_at', '<=', claim.now)
      .where(refreshLeaseFree(claim.now))
      .where('institution_id', 'not in', busy)
      .orderBy('refresh_due_at')
      .orderBy('id')
      .limit(limit);
    // Each one's place among its institution's refreshes in flight and candidates before it.
    const placed = ex
      .selectFrom(candidates.as('c'))
      .leftJoin(inFlight.as('b'), 'b.institution_id', 'c.institution_id')
      .select((eb) => [
        'c.id',
        eb(
          eb.fn.coalesce('b.in_flight', sql.lit(0)),
          '+',
          eb.fn.agg<number>('row_number').over((ob) => ob.partitionBy('c.institution_id').orderBy('c.refresh_due_at').orderBy('c.id')),
        ).as('place'),
      ]);
    const due = ex.selectFrom(placed.as('p')).select('p.id').where('p.place', '<=', claim.perInstitution);
    const claimable = postgres ? ex.selectFrom('institution_logins').select('id').where('id', 'in', due).forUpdate().skipLocked() : due;
    return ex
      .updateTable('institution_logins')
      .set({ refresh_lease_owner: claim.owner, refresh_lease_until: claim.leaseUntil })
      .where('id', 'in', claimable)
      .where(refreshLeaseFree(claim.now))
      .returningAll()
      .execute();
  };
  const run = async (ex: Executor) => {
    if (postgres) await sql`select pg_advisory_xact_lock(hashtext('ledgerlink refresh_claim ' || current_schema()))`.execute(ex);
    const idle = await claimFrom(ex, true, claim.limit);
    return idle.length < claim.limit ? [...idle, ...(await claimFrom(ex, false, claim.limit - idle.length))] : idle;
  };
  const rows = postgres ? await inTransaction(db, run) : await run(db);
  return rows.sort((a, b) => Number(a.refresh_due_at) - Number(b.refresh_due_at) || a.id - b.id);
}
