import type { Static } from 'typebox';
import { ServiceError } from '../../../../contract/errors/service-error.js';
import type { GenerateInput } from '../../../../modules/connect/service.js';
import type { ConnectParameters } from '../../../../contract/schemas/connect.js';

/** The generate request as the domain takes it; the body's partnerId must be the token's partner. */
export function generateInput(callerPartnerId: string, body: Static<typeof ConnectParameters>): GenerateInput {
  return { ...checkedPartner(callerPartnerId, body), customerId: body.customerId };
}

/** A request whose body names the partner: it must be the token's partner (refused otherwise). */
export function checkedPartner<T extends { partnerId: string }>(callerPartnerId: string, body: T): Omit<T, 'partnerId'> & { partnerId: string } {
  if (body.partnerId.trim() !== callerPartnerId) {
    throw new ServiceError('InvalidParameter', 'Invalid parameter (partnerId): it is not the partner the token was issued to.');
  }
  const { partnerId: _ignored, ...rest } = body;
  return { ...rest, partnerId: callerPartnerId };
}

/** What the generate operations say about the link they answer. */
export const LINK_DESCRIPTION =
  "The link's query carries customerId, origin, partnerId, linkId, type, experience, signature (HMAC-SHA256 over the other parameters), timestamp and ttl (epoch milliseconds, ttl two hours after timestamp). A changed, expired or (with singleUseUrl) used link shows an error page and does nothing. Webhooks for the session go to `webhook` (see docs/connect.md for the events).";
