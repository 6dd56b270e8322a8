import type { App } from '../../../app-types.js';
import { revokePartnerTokens } from '../../../../modules/partners/tokens.service.js';
import { ServiceError } from '../../../../contract/errors/service-error.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { PartnerIdentity } from '../../../../contract/schemas/partners.js';

/**
 * DELETE /aggregation/v2/partners/authentication (Ledgerlink extension): revokes every token of the calling partner.
 * The body names the partner, as the other operations on this path do, so a stray DELETE cannot do it by accident.
 */
export default function revokeTokens(app: App, runtime: Runtime): void {
  app.delete('/aggregation/v2/partners/authentication', {
    schema: {
      operationId: 'RevokePartnerTokens',
      tags: ['Authentication'],
      summary: 'Revoke every token of the partner (Ledgerlink extension)',
      description:
        'Revokes every token the partner holds, the one sent with this call included: from the next request on, in every process, they are refused with 10022. Authenticate again for a new token. The body names the calling partner, as a confirmation. Changing the secret or rotating the app key does not revoke tokens; this does.',
      body: PartnerIdentity,
      response: { 204: NoContent, ...errorResponses(400, 401, 406, 415) },
    },
    handler: async (request, reply) => {
      if (request.body.partnerId !== request.caller.partnerId) {
        throw new ServiceError('InvalidParameter', 'partnerId is not the partner the app key and token belong to');
      }
      await revokePartnerTokens(runtime, request.caller.partnerId);
      return reply.code(204).send(null);
    },
  });
}
