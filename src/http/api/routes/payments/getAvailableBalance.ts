import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { AvailableBalance } from '../../../../contract/schemas/payments.js';
import { getAvailableBalance as availableBalance } from '../../../../modules/payments/balances.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { servedPartner } from '../thirdPartyAccess/access-key.js';

/** GET /aggregation/v1/customers/{customerId}/accounts/{accountId}/availableBalance */
export default function getAvailableBalance(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/customers/:customerId/accounts/:accountId/availableBalance', {
    schema: {
      operationId: 'GetAvailableBalance',
      deprecated: true,
      tags: ['Payments'],
      summary: 'Get available balance (cached)',
      description:
        'The available and cleared balances of a checking or savings account as the last aggregation (or statement file) stored them, without asking the institution. The reference deprecates it for the live operation with `balance_cache_interval`. 400 (14020) for other account types, and for statement file accounts whose files stated no balance. Another partner may call it with a Service-Access-Key this partner granted (401 16524, 403 16525: docs/app-registration.md). See docs/payments.md.',
      params: AccountParams,
      response: { 200: AvailableBalance, ...errorResponses(400, 401, 403, 404, 406) },
    },
    handler: async (request) =>
      availableBalance(runtime, await servedPartner(runtime, request, 'availableBalance'), request.params.customerId, request.params.accountId),
  });
}
