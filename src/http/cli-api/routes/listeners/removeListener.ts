import { CliListenerParams } from '../../../../contract/schemas/cli.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { removePolledListener } from '../../../../outbox/listeners.js';
import { epochSeconds } from '../../../../platform/clock.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { found } from './view.js';

/** DELETE /cli/v1/listeners/{listenerId}: removes the listener; what was held for it and not taken yet is cancelled. */
export default function removeListener(app: App, runtime: Runtime): void {
  app.delete('/cli/v1/listeners/:listenerId', {
    schema: {
      hide: true,
      operationId: 'CliRemoveListener',
      tags: ['CLI'],
      summary: 'Remove a polled listener (Ledgerlink extension, CLI)',
      params: CliListenerParams,
      response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 406) },
    },
    handler: async (request, reply) => {
      const { listenerId } = request.params;
      found((await removePolledListener(runtime.database.kysely, listenerId, request.caller.partnerId, epochSeconds(runtime.clock))) || undefined, listenerId);
      return reply.code(204).send(null);
    },
  });
}
