import { signInPartner } from '../../../modules/partners/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { DashboardSession, DashboardSignInBody } from '../../../contract/schemas/dashboard.js';
import { dashboardResponses, signedIn } from './common.js';

/** POST /dashboard/api/signin: partner id and secret; failures are throttled by partner id and address and never lock the API. */
export default function signIn(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/signin', {
    schema: {
      hide: true,
      summary: 'Dashboard sign-in',
      body: DashboardSignInBody,
      response: dashboardResponses(DashboardSession, 429),
    },
    handler: async (request, reply) => {
      const partner = await signInPartner(runtime, request.body.partnerId.trim(), request.body.partnerSecret, request.ip);
      return signedIn(runtime, request, reply, partner.id);
    },
  });
}
