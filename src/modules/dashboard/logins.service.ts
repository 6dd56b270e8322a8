/** "Refresh now" from a customer's page: the API's refresh of one institution login, answered with its status afterwards. */
import type { Engine } from '../aggregation/engine.js';
import { getInstitutionLoginStatus, type InstitutionLoginStatusRecord } from '../aggregation/login-status.service.js';
import { refreshInstitutionLoginAccounts } from '../aggregation/refresh.service.js';

/**
 * Refreshes the partner's customer's login as Refresh Customer Accounts by Institution Login does (waiting for a
 * refresh already running, 409 when the wait runs out; 404 for another partner's) and answers its status: a failed
 * refresh is a status with its code, not an error.
 */
export async function refreshLoginNow(
  engine: Engine,
  partnerId: string,
  customerId: string,
  institutionLoginId: string,
): Promise<InstitutionLoginStatusRecord> {
  await refreshInstitutionLoginAccounts(engine, partnerId, customerId, institutionLoginId);
  return getInstitutionLoginStatus(engine, partnerId, customerId, institutionLoginId);
}
