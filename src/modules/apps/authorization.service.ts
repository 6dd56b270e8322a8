/**
 * Customer authorization details (docs/app-registration.md): when the customer's consent for an OAuth connection
 * began and when it ends, computed from what Ledgerlink holds about the login. Enable Banking's consents (PSD2) end on
 * a date its accounts keep (authorization_start_at, authorization_end_at). A connection signed in with credentials
 * (test bank forms, OFX, statement files) is no OAuth connection; the test bank's OAuth institution and SimpleFIN
 * accesses are granted without an end date, so there are no details to give.
 */
import type { Static } from 'typebox';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { CustomerAuthorizationDetails } from '../../contract/schemas/apps.js';
import { parseId } from '../aggregation/accounts.service.js';
import type { Engine } from '../aggregation/engine.js';
import * as repo from './repository.js';

/** Sources whose access the customer grants at the source itself, without handing Ledgerlink a password. */
const GRANTED_SOURCES = new Set(['simplefin']);

/** A date as the reference writes these: UTC, with microseconds and an explicit zero offset. */
export function authorizationDate(epoch: number): string {
  return `${new Date(epoch * 1000).toISOString().slice(0, 19).replace('T', ' ')}.000000+00:00`;
}

export async function authorizationDetails(
  engine: Pick<Engine, 'database' | 'registry'>,
  partnerId: string,
  institutionLoginId: string,
): Promise<Static<typeof CustomerAuthorizationDetails>> {
  const notOAuth = () =>
    new ServiceError('AuthorizationNotOAuth', `Institution Login Id is not found, or not an OAuth connection: ${institutionLoginId.trim()}`);
  const id = parseId(institutionLoginId);
  // Unknown ids, other partners' logins and logins signed in with credentials read alike.
  const login = id === undefined ? undefined : await repo.findPartnerLogin(engine.database.kysely, partnerId, id);
  if (login?.source !== 'connector') throw notOAuth();
  const lookup = await engine.registry.resolve(Number(login.institution_id));
  if (!lookup.available) throw notOAuth();
  const oauth = lookup.connector.capabilities.authMode === 'oauth';
  if (!oauth && !GRANTED_SOURCES.has(lookup.source.name)) throw notOAuth();
  const { start, end } = await repo.loginConsentDates(engine.database.kysely, Number(login.id));
  if (start === null || end === null) {
    throw new ServiceError(
      'AuthorizationDetailsUnavailable',
      `Institution Login Id details are not found: the authorization of login ${login.id} has no end date (it lasts until the customer revokes it).`,
    );
  }
  return { institutionLoginId: Number(login.id), authorizationStartDate: authorizationDate(start), authorizationEndDate: authorizationDate(end) };
}
