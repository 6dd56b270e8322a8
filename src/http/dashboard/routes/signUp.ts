import { createPartner } from '../../../modules/partners/service.js';
import { ServiceError } from '../../../contract/errors/service-error.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { DashboardSignedUp, DashboardSignUpBody } from '../../../contract/schemas/dashboard.js';
import { dashboardResponses, signedIn } from './common.js';

/**
 * POST /dashboard/api/signup: creates a Test Drive partner with the chosen secret (the secret policy applies) and
 * signs it in. The answer carries the app key once more for the credentials screen; the secret is never shown back.
 * Refused (403) when the operator turned sign-up off (the default in production mode, config.dashboardSignUp).
 */
export default function signUp(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/signup', {
    schema: {
      hide: true,
      summary: 'Dashboard sign-up',
      body: DashboardSignUpBody,
      response: dashboardResponses(DashboardSignedUp, 429),
    },
    handler: async (request, reply) => {
      if (!runtime.config.dashboardSignUp) throw new ServiceError('DashboardSignUpDisabled');
      const creds = await createPartner(runtime, { name: request.body.name.trim(), plan: 'testdrive', partnerSecret: request.body.partnerSecret });
      return { ...(await signedIn(runtime, request, reply, creds.partnerId)), appKey: creds.appKey };
    },
  });
}
