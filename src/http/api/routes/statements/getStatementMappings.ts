import { listStatementMappings, MAX_STATEMENT_MAPPINGS } from '../../../../modules/aggregation/statement-mappings.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { StatementMappingList } from '../../../../contract/schemas/statements.js';

/** GET /aggregation/v1/statement-mappings (Ledgerlink extension): the partner's saved CSV column mappings. */
export default function getStatementMappings(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/statement-mappings', {
    schema: {
      operationId: 'GetStatementMappings',
      tags: ['Institution logins'],
      summary: 'List saved CSV column mappings (Ledgerlink extension)',
      description: `The column mappings the partner's uploads saved, one per CSV layout (its \`fingerprint\`), the most recently used first. An upload of a CSV file with \`mapping\` saves it for the file's layout, replacing the one saved before; an upload of a file of that layout without \`mapping\`, for any of the partner's customers, is read with it before any built-in layout (its answer's \`mapping.source\` is \`saved\`). At most ${MAX_STATEMENT_MAPPINGS} are kept: saving one more forgets the least recently used. See docs/connectors.md, "Saved column mappings".`,
      response: { 200: StatementMappingList, ...errorResponses(401, 406) },
    },
    handler: async (request) => ({ mappings: await listStatementMappings(runtime.database.kysely, request.caller.partnerId) }),
  });
}
