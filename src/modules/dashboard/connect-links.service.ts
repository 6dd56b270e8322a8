/** Connect links made from a customer's dashboard page: the API's generate calls (Full, Lite, Fix) for the signed-in partner. */
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Engine } from '../aggregation/engine.js';
import { generateFixLink, generateFullLink, generateLiteLink } from '../connect/service.js';

export interface DashboardLinkRequest {
  type: 'full' | 'lite' | 'fix';
  experience?: string | undefined;
  webhook?: string | undefined;
  /** Lite: the one institution the link signs in at. */
  institutionId?: number | undefined;
  /** Fix: the institution login to sign in again. */
  institutionLoginId?: number | undefined;
}

/**
 * A signed link for the partner's customer, checked as the API checks it (the customer is the partner's, a Lite
 * institution may be linked by this customer, a Fix login is the customer's, the experience exists); answers the
 * URL and when it stops working.
 */
export async function connectLinkFor(engine: Engine, partnerId: string, customerId: string, request: DashboardLinkRequest) {
  const input = {
    partnerId,
    customerId,
    ...(request.experience?.trim() ? { experience: request.experience.trim() } : {}),
    ...(request.webhook?.trim() ? { webhook: request.webhook.trim() } : {}),
  };
  let link: string;
  if (request.type === 'lite') {
    if (request.institutionId === undefined)
      throw new ServiceError('MissingParameter', 'Missing parameter (institutionId): a Lite link signs in at one institution.');
    link = (await generateLiteLink(engine, { ...input, institutionId: request.institutionId })).link;
  } else if (request.type === 'fix') {
    if (request.institutionLoginId === undefined)
      throw new ServiceError('MissingParameter', 'Missing parameter (institutionLoginId): a Fix link signs in again at one institution login.');
    link = (await generateFixLink(engine, { ...input, institutionLoginId: request.institutionLoginId })).link;
  } else {
    link = (await generateFullLink(engine, input)).link;
  }
  return { type: request.type, link, expiresAt: Math.floor(Number(new URL(link).searchParams.get('ttl')) / 1000) };
}
