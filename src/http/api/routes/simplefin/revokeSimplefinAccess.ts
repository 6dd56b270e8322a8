import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { SimplefinAccessParams } from '../../../../contract/schemas/simplefin.js';
import { revokeAccess } from '../../../../modules/simplefin/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** DELETE /aggregation/v1/customers/{customerId}/simplefin/accesses/{accessId} (Ledgerlink extension): revokes an access (204). */
export default function revokeSimplefinAccess(app: App, runtime: Runtime): void {
  app.delete('/aggregation/v1/customers/:customerId/simplefin/accesses/:accessId', {
    schema: {
      operationId: 'RevokeSimplefinAccess',
      tags: ['SimpleFIN'],
      summary: 'Revoke a SimpleFIN access (Ledgerlink extension)',
      description:
        "Revokes an access (204): its credentials answer 403 from now on, and it stays listed with `revokedDate`. Revoking a revoked access changes nothing. 404 for an unknown access, another customer's or another partner's. See docs/simplefin-server.md.",
      params: SimplefinAccessParams,
      response: { 204: NoContent, ...errorResponses(401, 404, 406) },
    },
    handler: async (request, reply) => {
      await revokeAccess(runtime, request.caller.partnerId, request.params.customerId, request.params.accessId);
      return reply.code(204).send(null);
    },
  });
}
