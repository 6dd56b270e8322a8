import { getCustomerAccount as getAccount } from '../../../../modules/aggregation/accounts.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { Account, AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';

/** GET /aggregation/v2/customers/{customerId}/accounts/{accountId}, and its older twin under v1 that published clients still call. */
export default function getCustomerAccount(app: App, runtime: Runtime): void {
  for (const { version, operationId, deprecated } of [
    { version: 'v2', operationId: 'GetCustomerAccount', deprecated: false },
    { version: 'v1', operationId: 'GetCustomerAccountV1', deprecated: true },
  ]) {
    app.get(`/aggregation/${version}/customers/:customerId/accounts/:accountId`, {
      schema: {
        operationId,
        deprecated,
        tags: ['Accounts'],
        summary: deprecated ? 'Get customer account by id (v1)' : 'Get customer account by id',
        description: "One account with its detail and, for investment accounts, its positions. Another customer's account id is 404.",
        params: AccountParams,
        response: { 200: Account, ...errorResponses(401, 404, 406) },
      },
      handler: async (request) => getAccount(runtime, request.caller.partnerId, request.params.customerId, request.params.accountId),
    });
  }
}
