import Type from 'typebox';
import { refreshInstitutionLoginAccounts } from '../../../../modules/aggregation/refresh.service.js';
import type { App } from '../../../app-types.js';
import { AccountList, InstitutionLoginParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { MAX_EPOCH } from '../../../../contract/schemas/transactions.js';
import { partnerSlot } from '../../../plugins/heavy-work.js';

/** POST /aggregation/v1/customers/{customerId}/institutionLogins/{institutionLoginId}/accounts */
export default function refreshCustomerAccountsByInstitutionLogin(app: App): void {
  app.post('/aggregation/v1/customers/:customerId/institutionLogins/:institutionLoginId/accounts', {
    schema: {
      operationId: 'RefreshCustomerAccountsByInstitutionLogin',
      tags: ['Institution logins'],
      summary: 'Refresh institution login accounts',
      description:
        'Aggregates one institution login now and answers with its accounts afterwards, as Refresh Customer Accounts does for all of them. `fromDate` and `toDate` are accepted for compatibility; the engine chooses the window itself (docs/aggregation.md).',
      params: InstitutionLoginParams,
      querystring: Type.Object({
        fromDate: Type.Optional(
          Type.Integer({ minimum: 0, maximum: MAX_EPOCH, description: 'Accepted and ignored: the engine loads what changed since the last refresh' }),
        ),
        toDate: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_EPOCH, description: 'Accepted and ignored' })),
      }),
      response: { 200: AccountList, ...errorResponses(400, 401, 404, 406, 409, 429) },
    },
    onRequest: partnerSlot('refresh'),
    handler: async (request) => ({
      accounts: await refreshInstitutionLoginAccounts(app.engine, request.caller.partnerId, request.params.customerId, request.params.institutionLoginId),
    }),
  });
}
