import { getLoginRow } from '../../../../modules/aggregation/accounts.js';
import { refreshInstitutionLoginAccounts } from '../../../../modules/aggregation/refresh.js';
import { getCustomerForPartner } from '../../../../modules/customers/service.js';
import type { App } from '../../../app-types.js';
import { InstitutionLoginParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';

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
      response: { 204: NoContent, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request, reply) => {
      const { partnerId } = request.caller;
      const db = app.engine.runtime.database.kysely;
      const customer = await getCustomerForPartner(db, partnerId, request.params.customerId);
      const login = await getLoginRow(db, customer, request.params.institutionLoginId);
      app.engine.background(`refresh of institution login ${login.id}`, () =>
        refreshInstitutionLoginAccounts(app.engine, partnerId, customer.id, login.id, { wait: false }),
      );
      return reply.code(204).send(null);
    },
  });
}
