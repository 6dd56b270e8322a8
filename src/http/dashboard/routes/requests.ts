import Type from 'typebox';
import { toRequestLogDetail, toRequestLogEntry } from '../../../modules/requestlog/records.js';
import { getRequestLogEntry, listRequestLog, MAX_PATH_FILTER } from '../../../modules/requestlog/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { RequestLog, RequestLogDetail } from '../../../contract/schemas/dashboard.js';
import { dashboardResponses } from './common.js';

/**
 * GET /dashboard/api/requests: the partner's API requests, newest first; with afterId, those after it oldest
 * first (the live log polls with the last id it has). Narrowed by status (`4xx` or `404`), method and path text.
 */
export function getRequests(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/requests', {
    schema: {
      hide: true,
      summary: 'API request log',
      querystring: Type.Object({
        afterId: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
        limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
        status: Type.Optional(Type.String({ pattern: '^([1-5]([0-9]{2}|[xX]{2}))?$', description: 'A class (2xx, 4xx, 5xx) or one status (404)' })),
        method: Type.Optional(Type.String({ pattern: '^[A-Za-z]{0,16}$' })),
        path: Type.Optional(Type.String({ maxLength: MAX_PATH_FILTER, description: 'Text the path or its query string contains, in any letter case' })),
      }),
      response: dashboardResponses(RequestLog),
    },
    handler: async (request) => {
      const rows = await listRequestLog(runtime.database.kysely, {
        partnerId: request.dashboard.partnerId,
        afterId: request.query.afterId,
        limit: request.query.limit,
        status: request.query.status,
        method: request.query.method,
        path: request.query.path,
      });
      return { requests: rows.map(toRequestLogEntry) };
    },
  });
}

/** GET /dashboard/api/requests/{id}: one of the partner's requests with its headers and bodies (another partner's: 404). */
export function getRequest(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/requests/:id', {
    schema: {
      hide: true,
      summary: 'One API request with its request and answer',
      params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
      response: dashboardResponses(RequestLogDetail),
    },
    handler: async (request) => toRequestLogDetail(await getRequestLogEntry(runtime.database.kysely, request.dashboard.partnerId, request.params.id)),
  });
}
