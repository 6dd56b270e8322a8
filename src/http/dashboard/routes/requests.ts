import Type from 'typebox';
import { listRequestLog } from '../../../modules/requestlog/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { RequestLog } from '../../../contract/schemas/dashboard.js';
import { dashboardResponses } from './common.js';

/**
 * GET /dashboard/api/requests: the partner's API requests, newest first; with afterId, those after it oldest
 * first (the live log polls with the last id it has).
 */
export function getRequests(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/requests', {
    schema: {
      hide: true,
      summary: 'API request log',
      querystring: Type.Object({
        afterId: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
        limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
      }),
      response: dashboardResponses(RequestLog),
    },
    handler: async (request) => {
      const rows = await listRequestLog(runtime.database.kysely, {
        partnerId: request.dashboard.partnerId,
        afterId: request.query.afterId,
        limit: request.query.limit,
      });
      return {
        requests: rows.map((r) => ({
          id: Number(r.id),
          method: r.method,
          path: r.path,
          status: r.status,
          latencyMs: Number(r.latency_ms),
          errorCode: r.error_code,
          requestId: r.request_id,
          at: Number(r.created_at_ms),
        })),
      };
    },
  });
}
