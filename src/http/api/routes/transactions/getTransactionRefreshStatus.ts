import { getTransactionRefresh } from '../../../../modules/aggregation/refreshes.service.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { TransactionRefreshParams, TransactionRefreshStatus } from '../../../../contract/schemas/refreshes.js';

/** GET /aggregation/customers/{customerId}/transactions/refreshes/{refreshId} */
export default function getTransactionRefreshStatus(app: App): void {
  app.get('/aggregation/customers/:customerId/transactions/refreshes/:refreshId', {
    schema: {
      operationId: 'GetTransactionRefreshStatus',
      tags: ['Transactions'],
      summary: 'Get Customer Account Refresh Status',
      description:
        "The refresh's status (NEW, IN_PROGRESS, COMPLETED when at least one account was refreshed, FAILED when none was) and each account's outcome: aggregationStatusCode 0 with aggregationSuccessDate, or the failure's code and message; an account still waiting has neither. 404 for an unknown customer or refresh id.",
      params: TransactionRefreshParams,
      response: { 200: TransactionRefreshStatus, ...errorResponses(401, 404, 406) },
    },
    handler: async (request) => getTransactionRefresh(app.engine, request.caller.partnerId, request.params.customerId, request.params.refreshId),
  });
}
