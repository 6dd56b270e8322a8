import { AuthorizationDetailsParams, CustomerAuthorizationDetails } from '../../../../contract/schemas/apps.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { authorizationDetails } from '../../../../modules/apps/authorization.service.js';
import type { App } from '../../../app-types.js';

/** GET /customers/institution-logins/{institution_login_id}/authorization-details */
export default function getCustomerAuthorizationDetails(app: App): void {
  app.get('/customers/institution-logins/:institution_login_id/authorization-details', {
    schema: {
      operationId: 'GetCustomerAuthorizationDetails',
      tags: ['Customer Authorization Details'],
      summary: 'Get Customer Authorization Details',
      description:
        "When the customer's consent for an OAuth connection began and when it ends, from what Ledgerlink holds about the login: an Enable Banking consent's dates (the earliest start and end among its accounts). 404 (16530) for a login that is not an OAuth connection (credentials, OFX, statement files) and for an unknown login or another partner's; 404 (16531) for an authorization with no end date (the test bank's OAuth institution, SimpleFIN accesses).",
      params: AuthorizationDetailsParams,
      response: { 200: CustomerAuthorizationDetails, ...errorResponses(401, 404, 406) },
    },
    handler: async (request) => authorizationDetails(app.engine, request.caller.partnerId, request.params.institution_login_id),
  });
}
