import { startInstitutionLoginRefresh } from '../../../../modules/aggregation/refresh.service.js';
import type { App } from '../../../app-types.js';
import { InstitutionLoginParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { keepHeavySlot, partnerSlot } from '../../../plugins/heavy-work.js';

/** POST /aggregation/v2/customers/{customerId}/institutionLogins/{institutionLoginId}/accounts */
export default function refreshCustomerAccountsByInstitutionLoginV2(app: App): void {
  app.post('/aggregation/v2/customers/:customerId/institutionLogins/:institutionLoginId/accounts', {
    schema: {
      operationId: 'RefreshCustomerAccountsByInstitutionLoginV2',
      tags: ['Institution logins'],
      summary: 'Refresh institution login accounts (in the background)',
      description:
        'Starts a refresh of one institution login and answers 204 at once (404 for an unknown login). Nothing new starts when the login is already being refreshed.',
      params: InstitutionLoginParams,
      response: { 204: NoContent, ...errorResponses(400, 401, 404, 406, 429) },
    },
    onRequest: partnerSlot('refresh'),
    handler: async (request, reply) => {
      // The refresh goes on after the answer, and counts against the partner's limit until it ends.
      const release = keepHeavySlot(request);
      try {
        await startInstitutionLoginRefresh(app.engine, request.caller.partnerId, request.params.customerId, request.params.institutionLoginId, release);
      } catch (error) {
        release();
        throw error;
      }
      return reply.code(204).send(null);
    },
  });
}
