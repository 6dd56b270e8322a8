import Type from 'typebox';
import { listDeliveries, listMail, redeliverDelivery } from '../../../outbox/service.js';
import { listRequestLog } from '../../../modules/requestlog/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { DeliveryList, Mailbox, Redelivered, RequestLog } from '../../../contract/schemas/dashboard.js';
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

/** GET /dashboard/api/deliveries: the partner's TxPUSH, webhook and e-mail deliveries with every attempt, newest first. */
export function getDeliveries(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/deliveries', {
    schema: {
      hide: true,
      summary: 'Deliveries',
      querystring: Type.Object({
        kind: Type.Optional(Type.Union([Type.Literal('txpush'), Type.Literal('webhook'), Type.Literal('email')])),
        limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
      }),
      response: dashboardResponses(DeliveryList),
    },
    handler: async (request) => ({
      deliveries: await listDeliveries(runtime.database.kysely, {
        partnerId: request.dashboard.partnerId,
        kind: request.query.kind,
        limit: request.query.limit,
      }),
    }),
  });
}

/** POST /dashboard/api/deliveries/:deliveryId/redeliver: sends a delivery again (same event id); its history stays. */
export function redeliver(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/deliveries/:deliveryId/redeliver', {
    schema: {
      hide: true,
      summary: 'Redeliver',
      params: Type.Object({ deliveryId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
      response: dashboardResponses(Redelivered),
    },
    handler: async (request) => ({
      delivery: await redeliverDelivery(runtime.database.kysely, runtime.clock, request.params.deliveryId, request.dashboard.partnerId),
    }),
  });
}

/** GET /dashboard/api/mail: the partner's e-mail kept in the local mailbox, newest first. */
export function getMail(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/mail', {
    schema: {
      hide: true,
      summary: 'Mailbox',
      querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }) }),
      response: dashboardResponses(Mailbox),
    },
    handler: async (request) => ({
      messages: (await listMail(runtime.database.kysely, { partnerId: request.dashboard.partnerId, limit: request.query.limit })).map(
        ({ partnerId: _p, ...m }) => m,
      ),
    }),
  });
}
