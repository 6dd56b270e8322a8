import { AccountParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { LoanPaymentDetails } from '../../../../contract/schemas/payments.js';
import { getLoanPaymentDetails as loanPaymentDetails } from '../../../../modules/payments/loans.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /aggregation/v2/customers/{customerId}/accounts/{accountId}/loanDetails */
export default function getLoanPaymentDetails(app: App, runtime: Runtime): void {
  app.get('/aggregation/v2/customers/:customerId/accounts/:accountId/loanDetails', {
    schema: {
      operationId: 'GetLoanPaymentDetails',
      tags: ['Payments'],
      summary: 'Get loan payment details',
      description:
        "How to pay a loan or mortgage manually, as its institution states it: the loan number, the payment number to quote and the address payments go to, with the payoff amount as of the account's balance date. 400 (14020) for other account types and for loans whose source gives no payment instructions (the test bank's loans have them). See docs/payments.md.",
      params: AccountParams,
      response: { 200: LoanPaymentDetails, ...errorResponses(400, 401, 404, 406) },
    },
    // The answer gives full account numbers: the request log keeps its size only.
    config: { answerHoldsAccountNumbers: true },
    handler: async (request) => loanPaymentDetails(runtime, request.caller.partnerId, request.params.customerId, request.params.accountId),
  });
}
