import { AccountList } from '../../../../contract/schemas/accounts.js';
import { MigrationParams } from '../../../../contract/schemas/apps.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { migrateLogin } from '../../../../modules/apps/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** PUT /aggregation/v2/customers/{customerId}/institutionLogins/{institutionLoginId}/migration */
export default function migrateInstitutionLoginAccounts(app: App, runtime: Runtime): void {
  app.put('/aggregation/v2/customers/:customerId/institutionLogins/:institutionLoginId/migration', {
    schema: {
      operationId: 'MigrateInstitutionLoginAccounts',
      tags: ['App Registration'],
      summary: 'Migrate Institution Login Accounts',
      description:
        "Moves the institution login under the customer's app. Ledgerlink keeps one connection per institution, so nothing is linked again: the login records the app (the dashboard counts the logins of each app) and its accounts, ids unchanged, are the answer. 400 when the customer's app is not approved (16508) or does not cover the login's institution (16513, not an OAuth institution); 404 for an unknown customer or login, or a customer without an app (16510, 16511).",
      params: MigrationParams,
      response: { 200: AccountList, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => migrateLogin(runtime, request.caller.partnerId, request.params.customerId, request.params.institutionLoginId),
  });
}
