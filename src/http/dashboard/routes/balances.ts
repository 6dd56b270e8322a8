import Type from 'typebox';
import { accountBalanceHistory } from '../../../modules/aggregation/balances.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { DashboardBalanceHistory } from '../../../contract/schemas/dashboard.js';
import { dashboardResponses } from './common.js';

/** GET /dashboard/api/customers/:customerId/accounts/:accountId/balances: the account's daily balances, for its chart. */
export function getAccountBalances(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/customers/:customerId/accounts/:accountId/balances', {
    schema: {
      hide: true,
      summary: "An account's balance history",
      params: Type.Object({ customerId: Type.String({ maxLength: 64 }), accountId: Type.String({ maxLength: 64 }) }),
      response: dashboardResponses(DashboardBalanceHistory),
    },
    handler: async (request) => accountBalanceHistory(runtime, request.dashboard.partnerId, request.params.customerId, request.params.accountId, {}),
  });
}
