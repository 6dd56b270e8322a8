import Type from 'typebox';
import { listDeliveries, redeliverDelivery } from '../../../outbox/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { DeliveryList, Redelivered } from '../../../contract/schemas/dashboard.js';
import { dashboardResponses } from './common.js';

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
