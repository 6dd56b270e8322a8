import Type from 'typebox';
import { getPartnerRecord, type Caller } from '../../../modules/partners/service.js';
import { advanceClock, clearLoginError, fireConnectWebhook, fireTxPushEvent, resetCustomer, setLoginError } from '../../../modules/sandbox/controls.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { DASHBOARD_API, dashboardResponses } from './common.js';

/** The signed-in partner as the sandbox controls see a caller (their plan decides: production partners are refused). */
async function callerOf(runtime: Runtime, partnerId: string): Promise<Caller> {
  const partner = await getPartnerRecord(runtime, partnerId);
  return { partnerId: partner.id, plan: partner.plan };
}

const CustomerParams = Type.Object({ customerId: Type.String({ maxLength: 64 }) });
const LoginParams = Type.Object({ customerId: Type.String({ maxLength: 64 }), institutionLoginId: Type.String({ maxLength: 64 }) });

/**
 * The sandbox controls on a customer's dashboard page, the same domain functions as /sandbox/v1: POST
 * /dashboard/api/customers/:customerId/sandbox/{clock,reset,webhook,txpush} and
 * /dashboard/api/customers/:customerId/sandbox/logins/:institutionLoginId/{error,clear}.
 */
export default function dashboardSandbox(app: App, runtime: Runtime): void {
  const base = '/dashboard/api/customers/:customerId/sandbox';
  app.post(`${base}/clock`, {
    ...DASHBOARD_API,
    schema: {
      hide: true,
      summary: 'Advance a customer clock',
      params: CustomerParams,
      body: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 3660 }) }),
      response: dashboardResponses(409),
    },
    handler: async (request) => advanceClock(app.engine, await callerOf(runtime, request.dashboard.partnerId), request.params.customerId, request.body.days),
  });
  app.post(`${base}/reset`, {
    ...DASHBOARD_API,
    schema: { hide: true, summary: 'Reset a customer', params: CustomerParams, response: dashboardResponses(409) },
    handler: async (request) => resetCustomer(app.engine, await callerOf(runtime, request.dashboard.partnerId), request.params.customerId),
  });
  app.post(`${base}/webhook`, {
    ...DASHBOARD_API,
    schema: {
      hide: true,
      summary: 'Fire a Connect webhook',
      params: CustomerParams,
      body: Type.Object({ eventType: Type.String({ maxLength: 64 }) }),
      response: dashboardResponses(409),
    },
    handler: async (request) =>
      fireConnectWebhook(app.engine, await callerOf(runtime, request.dashboard.partnerId), {
        customerId: request.params.customerId,
        eventType: request.body.eventType,
      }),
  });
  app.post(`${base}/txpush`, {
    ...DASHBOARD_API,
    schema: {
      hide: true,
      summary: 'Fire a TxPUSH event',
      params: CustomerParams,
      body: Type.Object({ accountId: Type.String({ maxLength: 64 }), eventType: Type.String({ maxLength: 64 }) }),
      response: dashboardResponses(409),
    },
    handler: async (request) =>
      fireTxPushEvent(app.engine, await callerOf(runtime, request.dashboard.partnerId), {
        customerId: request.params.customerId,
        accountId: request.body.accountId,
        eventType: request.body.eventType,
      }),
  });
  app.post(`${base}/logins/:institutionLoginId/error`, {
    ...DASHBOARD_API,
    schema: {
      hide: true,
      summary: 'Put a login into an error state',
      params: LoginParams,
      body: Type.Object({ code: Type.Integer({ minimum: 0, maximum: 100_000 }) }),
      response: dashboardResponses(409),
    },
    handler: async (request) =>
      setLoginError(
        app.engine,
        await callerOf(runtime, request.dashboard.partnerId),
        request.params.customerId,
        request.params.institutionLoginId,
        request.body.code,
      ),
  });
  app.post(`${base}/logins/:institutionLoginId/clear`, {
    ...DASHBOARD_API,
    schema: { hide: true, summary: 'Clear a login error state', params: LoginParams, response: dashboardResponses(409) },
    handler: async (request) =>
      clearLoginError(app.engine, await callerOf(runtime, request.dashboard.partnerId), request.params.customerId, request.params.institutionLoginId),
  });
}
