import { sql, type SelectQueryBuilder } from 'kysely';
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
 * A first pass takes the soonest due login of each institution with no refresh in flight, one each: a slow
 * institution's backlog, due before everyone else's, would otherwise take back each slot its refreshes free (all of
 * them when its refreshes end together), and with a slow and a dead institution at their caps no other login would be
 * refreshed until both backlogs were done (docs/benchmarks.md, "Scheduled refreshes at scale"). This pass reads every
 * free due login of the idle institutions (the due index), a backlog's too.
 *
 * PostgreSQL: claims take turns (a transaction-level advisory lock, keyed by schema), so concurrent workers count
 * each other's claims and keep the cap between them; FOR UPDATE SKIP LOCKED passes over a login a refresh is taking
 * at that moment. SQLite: each UPDATE ... RETURNING statement runs under the database's write lock, so another
 * process cannot claim between its count and its update.
 */
export async function claimDueLogins(db: Executor, claim: LoginClaim): Promise<InstitutionLoginRow[]> {
  const postgres = isPostgresExecutor(db);
  // Refreshes in flight per institution: held leases, read from the partial index of leased logins alone.
  const leased = (ex: Executor) =>
    ex.selectFrom('institution_logins').where('refresh_lease_until', '>=', claim.now).where('source', '<>', 'statement-file').groupBy('institution_id');
  // Free due logins of institutions other than `busy` (the due index).
  const dueFree = (ex: Executor, busy: ReturnType<typeof leased>) =>
    ex
      .selectFrom('institution_logins')
      .where('refresh_due_at', '<=', claim.now)
      .where(refreshLeaseFree(claim.now))
      .where('institution_id', 'not in', busy.select('institution_id'));
  const take = <D, T extends keyof D>(ex: Executor, due: SelectQueryBuilder<D, T, { id: number }>) => {
    const claimable = postgres ? ex.selectFrom('institution_logins').select('id').where('id', 'in', due).forUpdate().skipLocked() : due;
    return ex
      .updateTable('institution_logins')
      .set({ refresh_lease_owner: claim.owner, refresh_lease_until: claim.leaseUntil })
      .where('id', 'in', claimable)
      .where(refreshLeaseFree(claim.now))
      .returningAll()
      .execute();
  };
  // First pass: the soonest due login of each institution with nothing in flight, institutions in due order.
  const claimIdle = (ex: Executor, limit: number) => {
    const firsts = dueFree(ex, leased(ex)).select((eb) => [
      'id',
      'refresh_due_at',
      eb.fn
        .agg<number>('row_number')
        .over((ob) => ob.partitionBy('institution_id').orderBy('refresh_due_at').orderBy('id'))
        .as('place'),
    ]);
    const due = ex.selectFrom(firsts.as('p')).select('p.id').where('p.place', '=', 1).orderBy('p.refresh_due_at').orderBy('p.id').limit(limit);
    return take(ex, due);
  };
  // Second pass: the soonest due logins of the institutions below their cap, each kept while it has room.
  const claimBelowCap = (ex: Executor, limit: number) => {
    const inFlight = leased(ex).select((eb) => ['institution_id', eb.fn.countAll<number>().as('in_flight')]);
    const capped = leased(ex).having((eb) => eb.fn.countAll(), '>=', claim.perInstitution);
    const candidates = dueFree(ex, capped).select(['id', 'institution_id', 'refresh_due_at']).orderBy('refresh_due_at').orderBy('id').limit(limit);
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
    return take(ex, ex.selectFrom(placed.as('p')).select('p.id').where('p.place', '<=', claim.perInstitution));
  };
  const run = async (ex: Executor) => {
    if (postgres) await sql`select pg_advisory_xact_lock(hashtext('ledgerlink refresh_claim ' || current_schema()))`.execute(ex);
    const idle = await claimIdle(ex, claim.limit);
    return idle.length < claim.limit ? [...idle, ...(await claimBelowCap(ex, claim.limit - idle.length))] : idle;
  };
  const rows = postgres ? await inTransaction(db, run) : await run(db);
  return rows.sort((a, b) => Number(a.refresh_due_at) - Number(b.refresh_due_at) || a.id - b.id);
}
