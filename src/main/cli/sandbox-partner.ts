import type { Executor } from '../../platform/db/database.js';
import { parseCustomerId } from '../../modules/customers/service.js';
import { findPartnerById } from '../../modules/partners/repository.js';
import type { Caller } from '../../modules/partners/service.js';
import { assertSandboxAllowed } from '../../modules/sandbox/controls.service.js';
import { UsageError } from './args.js';

/** The partner a sandbox command acts for, and how it was chosen. */
export interface PickedPartner extends Caller {
  source: 'option' | 'customer' | 'only';
}

/** The partner a customer id names, when the id is a customer's of this store. */
async function partnerOfCustomer(db: Executor, customerId: string | undefined): Promise<string | undefined> {
  const id = customerId === undefined ? undefined : parseCustomerId(customerId);
  if (id === undefined) return undefined;
  const row = await db.selectFrom('customers').select('partner_id').where('id', '=', id).executeTakeFirst();
  return row?.partner_id;
}

/**
 * The partner a sandbox command acts for: --partner, else the partner of the customer the command names, else the
 * only partner of the store when there is just one. A --partner that is not the customer's partner is refused.
 * Refused (14090) for production-plan partners, like the sandbox API.
 */
export function sandboxPartner(db: Executor, partnerId: string | undefined, usage: string, customerId?: string): Promise<PickedPartner> {
  // A production-plan partner is refused whatever the customer.
  return pickPartner(db, partnerId, usage, customerId, assertSandboxAllowed);
}

/**
 * The partner a direct-mode command about a customer acts for, chosen as for sandbox commands but of any plan;
 * `check` vets the partner before the customer is matched against it.
 */
export async function pickPartner(
  db: Executor,
  partnerId: string | undefined,
  usage: string,
  customerId?: string,
  check: (caller: Caller) => void = () => undefined,
): Promise<PickedPartner> {
  let id = partnerId?.trim();
  let source: PickedPartner['source'] = 'option';
  const customersPartner = await partnerOfCustomer(db, customerId);
  if (!id && customersPartner !== undefined) {
    id = customersPartner;
    source = 'customer';
  }
  if (!id) {
    const rows = await db.selectFrom('partners').select('id').limit(2).execute();
    if (rows.length !== 1) {
      throw new UsageError(
        rows.length === 0 ? 'no partner in this data store' : 'this data store has several partners: say which with --partner ID',
        rows.length === 0 ? 'create one with `ledgerlink partner create`' : `\`ledgerlink partner list\` shows them; usage: ${usage}`,
      );
    }
    id = rows[0]!.id;
    source = 'only';
  }
  const row = await findPartnerById(db, id);
  if (!row) throw new UsageError(`no partner ${id}`, 'check the id (`ledgerlink partner list`), and --data or DATABASE_URL point at the right store');
  const caller: PickedPartner = { partnerId: row.id, plan: row.plan, source };
  check(caller);
  if (customersPartner !== undefined && customersPartner !== row.id) {
    throw new UsageError(
      `customer ${customerId!.trim()} belongs to partner ${customersPartner}, not to partner ${row.id}`,
      `leave out --partner, or give --partner ${customersPartner}`,
    );
  }
  return caller;
}

/** A line saying which partner a command acted for, for its human output. */
export function partnerNote(picked: PickedPartner): string {
  const how = { option: 'given with --partner', customer: "the customer's partner", only: 'the only partner of this data store' }[picked.source];
  return `partner ${picked.partnerId} (${how})`;
}
