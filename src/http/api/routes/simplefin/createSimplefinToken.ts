import { CustomerIdParams } from '../../../../contract/schemas/customers.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { SIMPLEFIN_LIMITS, SimplefinToken, SimplefinTokenBody } from '../../../../contract/schemas/simplefin.js';
import { mintSetupToken } from '../../../../modules/simplefin/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** POST /aggregation/v1/customers/{customerId}/simplefin/tokens (Ledgerlink extension): a SimpleFIN setup token (201). */
export default function createSimplefinToken(app: App, runtime: Runtime): void {
  app.post('/aggregation/v1/customers/:customerId/simplefin/tokens', {
    schema: {
      operationId: 'CreateSimplefinToken',
      tags: ['SimpleFIN'],
      summary: 'Create a SimpleFIN setup token (Ledgerlink extension)',
      description: `A setup token that gives a SimpleFIN client (Actual Budget, Firefly III's data importer, …) read access to the customer's accounts (201): all of them, those linked later included, or only \`accountIds\`. The token is the base64 of \`claimUrl\`; the client claims it once, within ${SIMPLEFIN_LIMITS.tokenTtlSeconds / 60} minutes (\`expiresAt\`), and reads with the access URL the claim answers. It is shown once: only its hash is kept. 409 14180 when the service's public URL (LEDGERLINK_PUBLIC_URL) is not set; 400 14181 for an account the customer does not have. See docs/simplefin-server.md.`,
      params: CustomerIdParams,
      body: SimplefinTokenBody,
      response: { 201: SimplefinToken, ...errorResponses(400, 401, 404, 406, 409) },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await mintSetupToken(runtime, request.caller.partnerId, request.params.customerId, request.body?.accountIds)),
  });
}
