import { isRoutingNumber } from '../../connectors/routing-number.js';
import { TEST_INSTITUTIONS, testRoutingNumber } from '../../connectors/testbank/institutions.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Database } from '../../platform/db/database.js';
import { findInstitution } from '../institutions/service.js';
import type { InstitutionRow } from '../institutions/table.js';
import { institutionIdsWithRoutingNumber } from './repository.js';

/**
 * The routing number a path gives, as nine digits. The reference types it as an integer, so a number with leading
 * zeros (a First District bank's `011000015`) may come without them; they are put back before the check digit is
 * checked.
 */
export function routingNumberParameter(text: string): string {
  if (!/^\d{1,9}$/.test(text)) throw new ServiceError('InvalidParameter', 'Invalid parameter (routing_number): an ABA routing number, nine digits.');
  const digits = text.padStart(9, '0');
  if (!isRoutingNumber(digits))
    throw new ServiceError('InvalidParameter', `Invalid parameter (routing_number): ${digits} is not an ABA routing number (its check digit does not hold).`);
  return digits;
}

/**
 * The institutions that have this routing number, ordered by id: the test institutions whose accounts carry it,
 * and the institutions where the partner's own customers hold accounts whose source stated it (an OFX BANKID).
 * The catalogue states no routing numbers of its own, so another partner's accounts are never looked at: what one
 * partner's customers linked says nothing to another. 404 (14007) when none has it.
 */
export async function institutionsByRoutingNumber(database: Database, partnerId: string, text: string): Promise<InstitutionRow[]> {
  const routingNumber = routingNumberParameter(text);
  const ids = new Set(TEST_INSTITUTIONS.filter((t) => testRoutingNumber(t.id) === routingNumber).map((t) => t.id));
  for (const id of await institutionIdsWithRoutingNumber(database.kysely, partnerId, routingNumber)) ids.add(id);
  const rows: InstitutionRow[] = [];
  for (const id of [...ids].sort((a, b) => a - b)) {
    const row = await findInstitution(database, id);
    if (row) rows.push(row);
  }
  if (rows.length === 0) throw new ServiceError('RoutingNumberNotFound');
  return rows;
}
