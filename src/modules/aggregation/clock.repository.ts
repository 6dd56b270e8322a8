import type { Executor } from '../../platform/db/database.js';

/** Moves a customer's clock offset ahead by `seconds` (in the statement, so concurrent advances add up). */
export async function addClockOffset(db: Executor, partnerId: string, customerId: number, seconds: number): Promise<void> {
  await db
    .updateTable('customers')
    .set((eb) => ({ clock_offset_seconds: eb('clock_offset_seconds', '+', seconds) }))
    .where('id', '=', customerId)
    .where('partner_id', '=', partnerId)
    .execute();
}
