import Type from 'typebox';
import { deleteAccountSubscription, listAccountSubscriptions, subscribeAccount } from '../../../modules/dashboard/txpush.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { errorResponses } from '../../../contract/schemas/common.js';
import { DashboardTxPushBody, DashboardTxPushList, DashboardTxPushSubscribed } from '../../../contract/schemas/dashboard.js';
import { callerOf, dashboardNoContent, dashboardResponses } from './common.js';

const AccountParams = Type.Object({ customerId: Type.String({ maxLength: 64 }), accountId: Type.String({ maxLength: 64 }) });
const base = '/dashboard/api/customers/:customerId/accounts/:accountId/txpush';

/** GET /dashboard/api/customers/:customerId/accounts/:accountId/txpush: the account's TxPUSH subscriptions. */
export function getTxPushSubscriptions(app: App, runtime: Runtime): void {
  app.get(base, {
    schema: { hide: true, summary: "An account's TxPUSH subscriptions", params: AccountParams, response: dashboardResponses(DashboardTxPushList) },
    handler: async (request) => listAccountSubscriptions(runtime, request.dashboard.partnerId, request.params.customerId, request.params.accountId),
  });
}

/** POST /dashboard/api/customers/:customerId/accounts/:accountId/txpush: subscribes a listener after verifying it, as the API does (201). */
export function addTxPushSubscription(app: App, runtime: Runtime): void {
  app.post(base, {
    schema: {
      hide: true,
      summary: 'Subscribe to TxPUSH notifications',
      params: AccountParams,
      body: DashboardTxPushBody,
      response: { 201: DashboardTxPushSubscribed, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request, reply) => {
      const caller = await callerOf(runtime, request.dashboard.partnerId);
      const { customerId, accountId } = request.params;
      return reply.code(201).send(await subscribeAccount(runtime, caller, customerId, accountId, request.body.callbackUrl, request.body.format ?? 'json'));
    },
  });
}

/** DELETE /dashboard/api/customers/:customerId/accounts/:accountId/txpush/:subscriptionId: removes one subscription (204). */
export function deleteTxPushSubscription(app: App, runtime: Runtime): void {
  app.delete(`${base}/:subscriptionId`, {
    schema: {
      hide: true,
      summary: 'Delete a TxPUSH subscription',
      params: Type.Object({ ...AccountParams.properties, subscriptionId: Type.String({ maxLength: 64 }) }),
      response: dashboardNoContent(),
    },
    handler: async (request, reply) => {
      const { customerId, accountId, subscriptionId } = request.params;
      await deleteAccountSubscription(runtime, request.dashboard.partnerId, customerId, accountId, subscriptionId);
      return reply.code(204).send(null);
    },
  });
}
