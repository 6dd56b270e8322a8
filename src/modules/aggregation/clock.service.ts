/**
 * Customers' clocks: aggregation data is dated by the customer's clock (the service clock plus the customer's
 * offset), which the sandbox moves ahead to make time pass for one customer.
 */
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Runtime } from '../../platform/dependencies.js';
import { getCustomerForPartner } from '../customers/service.js';
import { addClockOffset } from './clock.repository.js';
import { customerNow } from './engine.js';

/** The largest clock advance one call accepts: ten years. */
export const MAX_CLOCK_ADVANCE_SECONDS = 10 * 366 * 86_400;

/** A customer's clock now (epoch seconds), by ids scoped to the partner (404 otherwise). */
export async function customerClockNow(runtime: Pick<Runtime, 'database' | 'clock'>, partnerId: string, customerId: string | number): Promise<number> {
  return customerNow(runtime, await getCustomerForPartner(runtime.database.kysely, partnerId, customerId));
}

/**
 * Moves a customer's clock ahead by `seconds` (sandbox time travel): from then on the institutions see a later
 * "now" for this customer, so refreshes find the transactions of the skipped time and pending ones posted.
 * The clock never goes back. Returns the customer's new now (epoch seconds).
 */
export async function advanceCustomerClock(
  runtime: Pick<Runtime, 'database' | 'clock'>,
  partnerId: string,
  customerId: string | number,
  seconds: number,
): Promise<number> {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_CLOCK_ADVANCE_SECONDS) {
    throw new ServiceError(
      'InvalidParameter',
      `Invalid parameter (seconds): the clock moves ahead by a whole number of seconds from 0 to ${MAX_CLOCK_ADVANCE_SECONDS}.`,
    );
  }
  const db = runtime.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  await addClockOffset(db, partnerId, customer.id, seconds);
  const updated = await getCustomerForPartner(db, partnerId, customer.id);
  return customerNow(runtime, updated);
}
