import { initiateMicroEntries } from '../../../../modules/microentries/service.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { CustomerIdParams } from '../../../../contract/schemas/customers.js';
import { InitiatedMicroEntries, MicroEntryInitiation } from '../../../../contract/schemas/microentries.js';

/** POST /microentry/v1/customers/{customerId} */
export default function initiateMicroAmountDeposits(app: App): void {
  app.post('/microentry/v1/customers/:customerId', {
    schema: {
      operationId: 'InitiateMicroAmountDeposits',
      tags: ['Account Validation Assistance'],
      summary: 'Initiate Micro Entries',
      description:
        "Deposits two random amounts under a dollar to the receiver's account; they land one day later on the customer's clock (status Pending, then Completed). At a test institution's routing number the amounts follow from the account number (docs/test-profiles.md). Where the customer has the account aggregated here, the deposits appear on it as transactions, and verify the entries by themselves when `institutionLoginId` names its login. 400 for a bad routing number (16400) or account number (16401); 409 (16402) while entries for the same numbers are under way or verified. Status changes are posted to `callbackUrl`.",
      params: CustomerIdParams,
      body: MicroEntryInitiation,
      response: { 200: InitiatedMicroEntries, ...errorResponses(400, 401, 404, 406, 409, 415) },
    },
    handler: async (request) => initiateMicroEntries(app.engine, request.caller.partnerId, request.params.customerId, request.body),
  });
}
