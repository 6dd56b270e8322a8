import Type from 'typebox';
import { advanceClock, clearLoginError, fireConnectWebhook, fireTxPushEvent, resetCustomer, setLoginError } from '../../../modules/sandbox/controls.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import {
  ClockAdvanceResult,
  CustomerResetResult,
  FiredConnectWebhook,
  FiredTxPushEvent,
  LoginErrorState,
  SandboxClockBody,
  SandboxLoginErrorBody,
  SandboxTxPushBody,
  SandboxWebhookBody,
} from '../../../contract/schemas/dashboard.js';
import { callerOf, dashboardResponses } from './common.js';

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
    schema: {
      hide: true,
      summary: 'Advance a customer clock',
      params: CustomerParams,
      body: SandboxClockBody,
      response: dashboardResponses(ClockAdvanceResult, 409),
    },
    handler: async (request) => advanceClock(app.engine, await callerOf(runtime, request.dashboard.partnerId), request.params.customerId, request.body.days),
  });
  app.post(`${base}/reset`, {
    schema: { hide: true, summary: 'Reset a customer', params: CustomerParams, response: dashboardResponses(CustomerResetResult, 409) },
    handler: async (request) => resetCustomer(app.engine, await callerOf(runtime, request.dashboard.partnerId), request.params.customerId),
  });
  app.post(`${base}/webhook`, {
    schema: {
      hide: true,
      summary: 'Fire a Connect webhook',
      params: CustomerParams,
      body: SandboxWebhookBody,
      response: dashboardResponses(FiredConnectWebhook, 409),
    },
    handler: async (request) =>
      fireConnectWebhook(app.engine, await callerOf(runtime, request.dashboard.partnerId), {
        customerId: request.params.customerId,
        eventType: request.body.eventType,
      }),
  });
  app.post(`${base}/txpush`, {
    schema: {
      hide: true,
      summary: 'Fire a TxPUSH event',
      params: CustomerParams,
      body: SandboxTxPushBody,
      response: dashboardResponses(FiredTxPushEvent, 409),
    },
    handler: async (request) =>
      fireTxPushEvent(app.engine, await callerOf(runtime, request.dashboard.partnerId), {
        customerId: request.params.customerId,
        accountId: request.body.accountId,
        eventType: request.body.eventType,
      }),
  });
  app.post(`${base}/logins/:institutionLoginId/error`, {
    schema: {
      hide: true,
      summary: 'Put a login into an error state',
      params: LoginParams,
      body: SandboxLoginErrorBody,
      response: dashboardResponses(LoginErrorState, 409),
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
    schema: { hide: true, summary: 'Clear a login error state', params: LoginParams, response: dashboardResponses(LoginErrorState, 409) },
    handler: async (request) =>
      clearLoginError(app.engine, await callerOf(runtime, request.dashboard.partnerId), request.params.customerId, request.params.institutionLoginId),
  });
}
