import { getMicroEntryDetails } from '../../../../modules/microentries/service.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { MicroEntryAccountParams, MicroEntryDetails } from '../../../../contract/schemas/microentries.js';

/** GET /microentry/v1/customers/{customerId}/accounts/{accountId} */
export default function getMicroDepositsDetails(app: App): void {
  app.get('/microentry/v1/customers/:customerId/accounts/:accountId', {
    schema: {
      operationId: 'GetMicroDepositsDetails',
      tags: ['Account Validation Assistance'],
      summary: 'Get Micro Entries Details',
      description:
        "The status of the customer's micro entries to the account as of now on the customer's clock (landing and expiry happen as time passes), with the routing number and the account number's last four digits. `autoVerifiedAccount` names the aggregated account whose transactions verified them.",
      params: MicroEntryAccountParams,
      response: { 200: MicroEntryDetails, ...errorResponses(401, 404, 406) },
    },
    handler: async (request) => getMicroEntryDetails(app.engine, request.caller.partnerId, request.params.customerId, request.params.accountId),
  });
}
