import { deleteInstitutionLogin } from '../../../../modules/aggregation/accounts.service.js';
import type { App } from '../../../app-types.js';
import { InstitutionLoginParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';

/** DELETE /aggregation/v1/customers/{customerId}/institutionLogins/{institutionLoginId} */
export default function deleteCustomerAccountsByInstitutionLogin(app: App): void {
  app.delete('/aggregation/v1/customers/:customerId/institutionLogins/:institutionLoginId', {
    schema: {
      operationId: 'DeleteCustomerAccountsByInstitutionLogin',
      tags: ['Institution logins'],
      summary: 'Delete institution login',
      description:
        'Deletes the institution login (and its saved sign-in) with all its accounts, their transactions and positions, recording an account `deleted` event for each account.',
      params: InstitutionLoginParams,
      response: { 204: NoContent, ...errorResponses(401, 404, 406) },
    },
    handler: async (request, reply) => {
      await deleteInstitutionLogin(app.engine, request.caller.partnerId, request.params.customerId, request.params.institutionLoginId);
      return reply.code(204).send(null);
    },
  });
}
