import { errorResponses } from '../../../../contract/schemas/common.js';
import { CustomerIdParams } from '../../../../contract/schemas/customers.js';
import { Asset, PayStatement } from '../../../../contract/schemas/pay-statements.js';
import { storePayStatement } from '../../../../modules/statements/pay-statements.service.js';
import { MAX_PAY_STATEMENT_BYTES } from '../../../../modules/statements/pay-statements.rules.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** The largest body: the Base64 of the largest document, with room for line breaks and the label. */
export const PAY_STATEMENT_BODY_LIMIT = Math.ceil((MAX_PAY_STATEMENT_BYTES * 4) / 3) + 256 * 1024;

/** POST /aggregation/v1/customers/{customerId}/payStatements */
export default function storeCustomerPayStatement(app: App, runtime: Runtime): void {
  app.post('/aggregation/v1/customers/:customerId/payStatements', {
    bodyLimit: PAY_STATEMENT_BODY_LIMIT,
    config: { bodyHoldsDocument: true },
    schema: {
      operationId: 'StoreCustomerPayStatement',
      tags: ['Pay Statements'],
      summary: 'Store Customer Pay Statement',
      description:
        "Stores a pay statement of one of the partner's customers, sealed at rest, and answers its asset id; Get Asset by Customer and ID answers the document again. " +
        '`label` is one of the reference’s (400, code 16710); `statement` is Base64 (400, code 16711) of a PDF, JPEG or PNG file, told by its first bytes (400, code 16712), of at most 5 MB (400, code 16713; a larger body 413, code 10042). See docs/statements.md.',
      params: CustomerIdParams,
      body: PayStatement,
      response: { 200: Asset, ...errorResponses(400, 401, 404, 406, 413, 415) },
    },
    handler: async (request) => storePayStatement(runtime, request.caller.partnerId, request.params.customerId, request.body),
  });
}
