import { listInstitutionLoginStatuses } from '../../../../modules/aggregation/login-status.service.js';
import { CustomerIdParam } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { InstitutionLoginStatusList } from '../../../../contract/schemas/institution-logins.js';
import type { App } from '../../../app-types.js';
import Type from 'typebox';

/** GET /cli/v1/customers/{customerId}/institutionLogins (`ledgerlink logins list`): each login's refresh status, oldest first. */
export default function listInstitutionLogins(app: App): void {
  app.get('/cli/v1/customers/:customerId/institutionLogins', {
    schema: {
      hide: true,
      operationId: 'CliListInstitutionLogins',
      tags: ['CLI'],
      summary: "A customer's institution logins and their refresh status (Ledgerlink extension, CLI)",
      params: Type.Object(CustomerIdParam),
      response: { 200: InstitutionLoginStatusList, ...errorResponses(401, 403, 404, 406) },
    },
    handler: async (request) => ({
      customerId: request.params.customerId,
      institutionLogins: await listInstitutionLoginStatuses(app.engine, request.caller.partnerId, request.params.customerId),
    }),
  });
}
