import { ServiceError } from '../../../../contract/errors/service-error.js';
import { CliListener, CliListenerRequest } from '../../../../contract/schemas/cli.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { assertSandboxAllowed } from '../../../../modules/sandbox/controls.service.js';
import { registerPolledListener } from '../../../../outbox/listeners.js';
import { epochSeconds } from '../../../../platform/clock.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { listenerView } from './view.js';

/**
 * POST /cli/v1/listeners (`ledgerlink listen`): registers a polled listener. While it is live, a copy of every TxPUSH
 * notification and Connect webhook queued for the partner is held for it. Test Drive partners only (403, 14090); at
 * most MAX_LIVE_LISTENERS live ones per partner (409, 14097).
 */
export default function registerListener(app: App, runtime: Runtime): void {
  app.post('/cli/v1/listeners', {
    schema: {
      hide: true,
      operationId: 'CliRegisterListener',
      tags: ['CLI'],
      summary: 'Register a polled listener (Ledgerlink extension, CLI)',
      body: CliListenerRequest,
      response: { 201: CliListener, ...errorResponses(400, 401, 403, 406, 409, 415) },
    },
    handler: async (request, reply) => {
      if (request.body.partnerId.trim() !== request.caller.partnerId)
        throw new ServiceError('InvalidParameter', 'Invalid parameter (partnerId): it is not the partner the app key and token belong to');
      assertSandboxAllowed(request.caller);
      const listener = await registerPolledListener(runtime.database.kysely, request.caller.partnerId, epochSeconds(runtime.clock));
      return reply.code(201).send(listenerView(listener));
    },
  });
}
