import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { AvailableBalance, AvailableBalanceLiveQuery } from '../../../../contract/schemas/payments.js';
import { DEFAULT_BALANCE_CACHE_MINUTES, getLiveAvailableBalance } from '../../../../modules/payments/balances.service.js';
import type { App } from '../../../app-types.js';
import { servedPartner } from '../thirdPartyAccess/access-key.js';
import { partnerSlot } from '../../../plugins/heavy-work.js';

/** GET /aggregation/v1/customers/{customerId}/accounts/{accountId}/availableBalance/live */
export default function getAvailableBalanceLive(app: App): void {
  app.get('/aggregation/v1/customers/:customerId/accounts/:accountId/availableBalance/live', {
    schema: {
      operationId: 'GetAvailableBalanceLive',
      tags: ['Payments'],
      summary: 'Get available balance',
      description: `The available and cleared balances of a checking or savings account, read from the institution: a refresh of the account's institution login (as Refresh Customer Accounts by Institution Login runs it), unless its balance was read at most \`balance_cache_interval\` minutes ago (${DEFAULT_BALANCE_CACHE_MINUTES} when absent, 0: always read). A refused refresh is an error whose code is the aggregation status code (103, 185...; 424 for 102); 409 (325) when another refresh of the login did not finish within 30 seconds. 400 (14020) for other account types and for statement file accounts, which have no source to read again. Another partner may call it with a Service-Access-Key this partner granted (401 16524, 403 16525: docs/app-registration.md). See docs/payments.md.`,
      params: AccountParams,
      querystring: AvailableBalanceLiveQuery,
      response: { 200: AvailableBalance, ...errorResponses(400, 401, 403, 404, 406, 409, 424, 429) },
    },
    onRequest: partnerSlot('refresh'),
    handler: async (request) =>
      getLiveAvailableBalance(
        app.engine,
        await servedPartner(app.engine, request, 'availableBalanceLive'),
        request.params.customerId,
        request.params.accountId,
        request.query.balance_cache_interval,
      ),
  });
}
