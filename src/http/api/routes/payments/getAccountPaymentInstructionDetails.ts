import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { PaymentInstructions } from '../../../../contract/schemas/payments.js';
import { getPaymentInstructions } from '../../../../modules/payments/ach.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /aggregation/v3/customers/{customerId}/accounts/{accountId}/details */
export default function getAccountPaymentInstructionDetails(app: App, runtime: Runtime): void {
  app.get('/aggregation/v3/customers/:customerId/accounts/:accountId/details', {
    schema: {
      operationId: 'GetAccountPaymentInstructionDetails',
      tags: ['Payments'],
      summary: 'Get account ACH details with RTP/FedNow',
      description:
        'The ACH details of a checking or savings account as payment instructions: one `ach` instruction with the full account number and the routing number as its descriptor. No source Ledgerlink reads says whether an account takes RTP or FedNow payments, so no such instruction is given. 400 (14020) where GetAccountACHDetails answers it. See docs/payments.md.',
      params: AccountParams,
      response: { 200: PaymentInstructions, ...errorResponses(400, 401, 404, 406) },
    },
    // The answer gives full account numbers: the request log keeps its size only.
    config: { answerHoldsAccountNumbers: true },
    handler: async (request) => getPaymentInstructions(runtime, request.caller.partnerId, request.params.customerId, request.params.accountId),
  });
}
