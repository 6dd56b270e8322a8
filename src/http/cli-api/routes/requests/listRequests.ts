import { toCliRequestRecord } from '../../../../modules/requestlog/records.js';
import { listRequestLog } from '../../../../modules/requestlog/service.js';
import { CliRequestList, CliRequestQuery } from '../../../../contract/schemas/cli.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/**
 * GET /cli/v1/requests (`ledgerlink logs tail`): the partner's latest API requests, or those after afterId, oldest first,
 * narrowed by status, method and path.
 */
export default function listRequests(app: App, runtime: Runtime): void {
  app.get('/cli/v1/requests', {
    schema: {
      hide: true,
      operationId: 'CliListRequests',
      tags: ['CLI'],
      summary: "The partner's API requests (Ledgerlink extension, CLI)",
      querystring: CliRequestQuery,
      response: { 200: CliRequestList, ...errorResponses(400, 401, 403, 406) },
    },
    handler: async (request) => {
      const { afterId } = request.query;
      const rows = await listRequestLog(runtime.database.kysely, { ...request.query, partnerId: request.caller.partnerId });
      // Without afterId the log answers newest first: a tail reads oldest first.
      if (afterId === undefined) rows.reverse();
      return { requests: rows.map(toCliRequestRecord) };
    },
  });
}
