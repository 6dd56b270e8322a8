import Type from 'typebox';
import { ServiceError } from '../../../contract/errors/service-error.js';
import { errorResponses } from '../../../contract/schemas/common.js';
import { CLAIM_PATH, CLAIM_TOKEN_PATTERN, claimSetupToken } from '../../../modules/simplefin/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';

const CLAIM_TOKEN = new RegExp(CLAIM_TOKEN_PATTERN);

/**
 * POST /simplefin/claim/{token}: the setup token's claim. Answers the access URL as the whole body (text, no trailing
 * newline), once; a used, expired or unknown token is 403. No authentication: an Authorization header is ignored.
 */
export default function claimSimplefinAccess(app: App, runtime: Runtime): void {
  app.post(`${CLAIM_PATH}/:token`, {
    schema: {
      params: Type.Object({ token: Type.String({ maxLength: 128 }) }),
      response: errorResponses(403),
    },
    handler: async (request, reply) => {
      // A text that cannot be a token is refused as an unknown token is: nothing tells the two apart.
      if (!CLAIM_TOKEN.test(request.params.token)) throw new ServiceError('SimplefinClaimRefused');
      const accessUrl = await claimSetupToken(runtime, request.params.token);
      // The body is the access URL as it is: no JSON quotes, no trailing newline.
      return reply
        .code(200)
        .type('text/plain; charset=utf-8')
        .send(Buffer.from(accessUrl, 'utf8') as never);
    },
  });
}
