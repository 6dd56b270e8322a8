import { isPostgresExecutor } from '../../outbox/wake.js';
import type { Executor } from '../../platform/db/database.js';
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
}

/**
 * Claims due logins: scheduled ones whose time has come and whose refresh lease is free (no refresh runs, or one
 * ran out because its process died), soonest due first, by taking that lease for `owner`: the lease every refresh
 * takes, so a claimed login is refreshed by its claimer alone, and a manual refresh of it meanwhile waits for
 * that refresh's result (refresh.service.ts).
 * PostgreSQL: FOR UPDATE SKIP LOCKED, so concurrent workers claim disjoint logins without waiting on each other.
 * SQLite: the one UPDATE ... RETURNING statement is a transaction under the database's write lock, so another
 * process cannot claim the same logins either.
 */
export async function claimDueLogins(db: Executor, claim: LoginClaim): Promise<InstitutionLoginRow[]> {
  let due = db
    .selectFrom('institution_logins')
    .select('id')
    .where('refresh_due_at', '<=', claim.now)
    .where(refreshLeaseFree(claim.now))
    .orderBy('refresh_due_at')
    .orderBy('id')
    .limit(claim.limit);
  if (isPostgresExecutor(db)) due = due.forUpdate().skipLocked();
  const rows = await db
    .updateTable('institution_logins')
    .set({ refresh_lease_owner: claim.owner, refresh_lease_until: claim.leaseUntil })
    .where('id', 'in', due)
    .returningAll()
    .execute();
  return rows.sort((a, b) => Number(a.refresh_due_at) - Number(b.refresh_due_at) || a.id - b.id);
}
