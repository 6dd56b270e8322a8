import { forgetStatementMapping } from '../../../../modules/aggregation/statement-mappings.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { StatementMappingParams } from '../../../../contract/schemas/statements.js';

/** DELETE /aggregation/v1/statement-mappings/{fingerprint} (Ledgerlink extension): forgets a saved CSV column mapping. */
export default function deleteStatementMapping(app: App, runtime: Runtime): void {
  app.delete('/aggregation/v1/statement-mappings/:fingerprint', {
    schema: {
      operationId: 'DeleteStatementMapping',
      tags: ['Institution logins'],
      summary: 'Forget a saved CSV column mapping (Ledgerlink extension)',
      description:
        "Forgets the partner's saved column mapping for a CSV layout (204): later files of that layout are read as if none had been saved (a built-in layout, or 422 14112 asking for a mapping). 404 when none is saved for it. An upload with `mapping` replaces a saved one without this.",
      params: StatementMappingParams,
      response: { 204: NoContent, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request, reply) => {
      await forgetStatementMapping(runtime.database.kysely, request.caller.partnerId, request.params.fingerprint);
      return reply.code(204).send(null);
    },
  });
}
