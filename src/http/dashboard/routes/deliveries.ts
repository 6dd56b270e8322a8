import Type from 'typebox';
import { deliveryFilters, listDeliveries, redeliverDelivery } from '../../../outbox/service.js';
import { DELIVERY_STATES } from '../../../outbox/table.js';
import { epochSeconds } from '../../../platform/clock.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { DeliveryList, Redelivered } from '../../../contract/schemas/dashboard.js';
import { dashboardResponses } from './common.js';

/**
 * GET /dashboard/api/deliveries: the partner's TxPUSH, webhook and e-mail deliveries with every attempt, newest first,
 * each with its `listen` copies, narrowed by state, event type, target and kind; and what the filters can offer.
 */
export function getDeliveries(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/deliveries', {
    schema: {
      hide: true,
      summary: 'Deliveries',
      querystring: Type.Object({
        state: Type.Optional(Type.Enum(DELIVERY_STATES)),
        eventType: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        target: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
        kind: Type.Optional(Type.Union([Type.Literal('txpush'), Type.Literal('webhook'), Type.Literal('email')])),
        limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
      }),
      response: dashboardResponses(DeliveryList),
    },
    handler: async (request) => {
      const { partnerId } = request.dashboard;
      const { state, eventType, target, kind, limit } = request.query;
      return {
        deliveries: await listDeliveries(runtime.database.kysely, { partnerId, state, eventType, target, kind, limit, groupCopies: true }, runtime.clock),
        filters: await deliveryFilters(runtime.database.kysely, partnerId),
        now: epochSeconds(runtime.clock),
      };
    },
  });
}

/** POST /dashboard/api/deliveries/:deliveryId/redeliver: sends a delivery again (same event id) at once; its history stays. */
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
