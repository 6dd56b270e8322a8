import Type from 'typebox';
import { startTransactionRefresh } from '../../../../modules/aggregation/refreshes.service.js';
import type { App } from '../../../app-types.js';
import { CustomerIdParam } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { TransactionRefreshInitiated, TransactionRefreshRequest } from '../../../../contract/schemas/refreshes.js';
import { keepHeavySlot, partnerSlot } from '../../../plugins/heavy-work.js';

/** POST /aggregation/customers/{customerId}/transactions/refreshes */
export default function refreshTransactions(app: App): void {
  app.post('/aggregation/customers/:customerId/transactions/refreshes', {
    schema: {
      operationId: 'RefreshTransactions',
      tags: ['Transactions'],
      summary: 'Trigger Customer Account Refresh',
      description:
        'Starts a refresh of the given accounts (or of every account of `institutionLoginId`; `accountIds` wins when both are given) and answers 202 at once with its id; read its status with Get Transaction Refresh Status. Modes: standard (a refresh), historic (the whole served history, two years at the test bank), custom (fromDate to toDate, at most two years back). 400 for a bad mode (10010) or date range (16411), 404 for unknown customers, accounts or logins (14001) or a login without accounts (16410); 429 while the partner runs as many refreshes as it may at once.',
      params: Type.Object(CustomerIdParam),
      body: TransactionRefreshRequest,
      response: { 202: TransactionRefreshInitiated, ...errorResponses(400, 401, 404, 406, 415, 429) },
    },
    onRequest: partnerSlot('refresh'),
    handler: async (request, reply) => {
      // The refresh goes on after the answer, and counts against the partner's limit until it ends.
      const release = keepHeavySlot(request);
      try {
        const started = await startTransactionRefresh(app.engine, request.caller.partnerId, request.params.customerId, request.body, release);
        return reply.code(202).send(started);
      } catch (error) {
        release();
        throw error;
      }
    },
  });
}
