/**
 * Keeping a login's refresh lease while its refresh runs (docs/aggregation.md, "Concurrency"). The lease
 * (refresh_lease_until, service clock) lets another process take over a refresh whose process died; a refresh that
 * is only slow, waiting on its institution, renews it every `settings.refreshLeaseRenewalMs` (a third of the lease by
 * default), so it keeps its login however long the institution takes. The renewal lives in this process's memory
 * alone: when the process dies, nothing renews the lease and it runs out as before.
 */
import { serviceNow, type Engine } from './engine.js';
import { updateLeasedLogin } from './logins.repository.js';

/**
 * Runs `work` while renewing the refresh lease `owner` holds on the login; stops renewing when `work` settles, or
 * once the lease turns out to be someone else's (the work then finds out when it stores its outcome).
 */
export async function keepingRefreshLease<T>(engine: Engine, loginId: number, owner: string, work: () => Promise<T>): Promise<T> {
  const db = engine.database.kysely;
  let renewal: Promise<unknown> = Promise.resolve();
  let held = true;
  const timer = setInterval(() => {
    renewal = renewal
      .then(async () => {
        if (!held) return;
        held = await updateLeasedLogin(db, loginId, owner, { refresh_lease_until: serviceNow(engine) + engine.settings.refreshLeaseSeconds });
        if (!held) clearInterval(timer);
      })
      // A renewal that fails (the database briefly away) is tried again at the next tick; the lease has time left.
      .catch(() => undefined);
  }, engine.settings.refreshLeaseRenewalMs);
  // The timer alone must not keep a process alive that is otherwise done.
  timer.unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
    held = false;
    await renewal;
  }
}
