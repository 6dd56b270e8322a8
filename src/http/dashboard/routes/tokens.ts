import { revokePartnerTokens } from '../../../modules/partners/tokens.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { TokensRevoked } from '../../../contract/schemas/dashboard.js';
import { dashboardResponses } from './common.js';

/** POST /dashboard/api/tokens/revoke: every API token of the partner is refused from this moment; answers how many still worked. */
export function revokeTokens(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/tokens/revoke', {
    schema: { hide: true, summary: 'Revoke every API token', response: dashboardResponses(TokensRevoked) },
    handler: async (request) => revokePartnerTokens(runtime, request.dashboard.partnerId),
  });
}
