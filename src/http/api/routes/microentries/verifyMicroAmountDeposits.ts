import { verifyMicroEntries } from '../../../../modules/microentries/service.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { MicroEntryAccountParams, MicroEntryVerification, VerifiedMicroEntries } from '../../../../contract/schemas/microentries.js';

/** POST /microentry/v1/customers/{customerId}/accounts/{accountId}/amounts */
export default function verifyMicroAmountDeposits(app: App): void {
  app.post('/microentry/v1/customers/:customerId/accounts/:accountId/amounts', {
    schema: {
      operationId: 'VerifyMicroAmountDeposits',
      tags: ['Account Validation Assistance'],
      summary: 'Verify Micro Entries',
      description:
        'Checks the two amounts (dollars, any order) against the deposits once they landed (status Completed): Verified when they match. A wrong answer is 400 (16405) and counts; the third fails the entries (Failed, then 16404). 400 (16403) while Pending or once settled otherwise, 400 (16406) for anything but two amounts of 0.01 to 0.99.',
      params: MicroEntryAccountParams,
      body: MicroEntryVerification,
      response: { 200: VerifiedMicroEntries, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) =>
      verifyMicroEntries(app.engine, request.caller.partnerId, request.params.customerId, request.params.accountId, request.body.amounts),
  });
}
