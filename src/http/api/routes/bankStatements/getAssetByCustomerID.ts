import { AssetParams } from '../../../../contract/schemas/bank-statements.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { getAsset } from '../../../../modules/statements/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { sendStatementFile, STATEMENT_FILE_RESPONSE } from './send.js';

/** GET /aggregation/v1/customers/{customerId}/assets/{assetId} */
export default function getAssetByCustomerID(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/customers/:customerId/assets/:assetId', {
    config: { fileAnswer: true },
    schema: {
      operationId: 'GetAssetByCustomerID',
      tags: ['Bank Statements'],
      summary: 'Get Asset by Customer and ID',
      description:
        "A stored asset of the customer as a file: a statement (`statement-…` ids, from Get Customer Account Multiple Statement Details), a PDF made from the account's stored data as it is now, a statement file as it was uploaded (`file-…` ids), in its own format, or a pay statement as Store Customer Pay Statement stored it (its asset id: a UUID and the customer id). " +
        'An id that names neither for this customer answers 404 (16202). Sent as application/octet-stream whatever Accept asks; errors come in JSON, or XML when Accept asks for it. See docs/statements.md.',
      params: AssetParams,
      response: { 200: STATEMENT_FILE_RESPONSE('The asset, a binary file'), ...errorResponses(400, 401, 404) },
    },
    handler: async (request, reply) =>
      sendStatementFile(reply, await getAsset(runtime, request.caller.partnerId, request.params.customerId, request.params.assetId)),
  });
}
