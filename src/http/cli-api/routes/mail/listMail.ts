import { listMail as listMailbox } from '../../../../outbox/service.js';
import { CliMailbox, CliMailQuery } from '../../../../contract/schemas/cli.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /cli/v1/mail (`ledgerlink mail list`): the partner's e-mail kept in the local mailbox, newest first. */
export default function listMail(app: App, runtime: Runtime): void {
  app.get('/cli/v1/mail', {
    schema: {
      hide: true,
      operationId: 'CliListMail',
      tags: ['CLI'],
      summary: "The partner's local mailbox (Ledgerlink extension, CLI)",
      querystring: CliMailQuery,
      response: { 200: CliMailbox, ...errorResponses(400, 401, 403, 406) },
    },
    handler: async (request) => ({ messages: await listMailbox(runtime.database.kysely, { partnerId: request.caller.partnerId, limit: request.query.limit }) }),
  });
}
