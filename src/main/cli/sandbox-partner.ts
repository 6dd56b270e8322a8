import type { Executor } from '../../platform/db/database.js';
import { findPartnerById } from '../../modules/partners/repository.js';
import type { Caller } from '../../modules/partners/service.js';
import { assertSandboxAllowed } from '../../modules/sandbox/controls.service.js';
import { UsageError } from './args.js';

/**
 * The partner a sandbox command acts for: --partner, or the only partner of the store when there is just one.
 * Refused (14090) for production-plan partners, like the sandbox API.
 */
export async function sandboxPartner(db: Executor, partnerId: string | undefined, usage: string): Promise<Caller> {
  let id = partnerId?.trim();
  if (!id) {
    const rows = await db.selectFrom('partners').select('id').limit(2).execute();
    if (rows.length !== 1) {
      throw new UsageError(
        rows.length === 0 ? 'no partner in this data store' : 'this data store has several partners: say which with --partner ID',
        rows.length === 0 ? 'create one with `ledgerlink partner create`' : `usage: ${usage}`,
      );
    }
    id = rows[0]!.id;
  }
  const row = await findPartnerById(db, id);
  if (!row) throw new UsageError(`no partner ${id}`, 'check the id, and --data or DATABASE_URL point at the right store');
  const caller: Caller = { partnerId: row.id, plan: row.plan };
  assertSandboxAllowed(caller);
  return caller;
}
