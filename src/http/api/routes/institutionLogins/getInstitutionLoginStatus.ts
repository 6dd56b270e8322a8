import { getInstitutionLoginStatus as loginStatus } from '../../../../modules/aggregation/login-status.service.js';
import type { App } from '../../../app-types.js';
import { InstitutionLoginParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { InstitutionLoginStatus } from '../../../../contract/schemas/institution-logins.js';

/** GET /aggregation/v1/customers/{customerId}/institutionLogins/{institutionLoginId}/status (Ledgerlink extension) */
export default function getInstitutionLoginStatus(app: App): void {
  app.get('/aggregation/v1/customers/:customerId/institutionLogins/:institutionLoginId/status', {
    schema: {
      operationId: 'GetInstitutionLoginStatus',
      tags: ['Institution logins'],
      summary: 'Get institution login refresh status (Ledgerlink extension)',
      description:
        'The login\'s refresh in sight: its last attempt and last success, the aggregation status code of the last failure, when the scheduled refresh runs next (or why none is planned: `refreshSchedule`), the failures in a row the schedule\'s backoff counts, whether a refresh runs now, and where its data comes from (`source`). Refresh Customer Accounts by Institution Login (`POST .../institutionLogins/{institutionLoginId}/accounts`) refreshes it now. See docs/aggregation.md, "Refresh status".',
      params: InstitutionLoginParams,
      response: { 200: InstitutionLoginStatus, ...errorResponses(401, 404, 406) },
    },
    handler: async (request) => loginStatus(app.engine, request.caller.partnerId, request.params.customerId, request.params.institutionLoginId),
  });
}
