import type { App } from '../../../app-types.js';
import { CustomerInstitutionParams } from '../../../../contract/schemas/accounts.js';
import { accountListRoute } from './lists.js';

/** GET /aggregation/v1/customers/{customerId}/institutions/{institutionId}/accounts/simple */
export default function getCustomerAccountsByInstitutionSimple(app: App): void {
  accountListRoute(app, {
    url: '/aggregation/v1/customers/:customerId/institutions/:institutionId/accounts/simple',
    operationId: 'GetCustomerAccountsByInstitutionSimple',
    summary: 'Get customer accounts by institution (simple)',
    description: "The basic fields of the customer's accounts at one institution (an empty list when there are none).",
    params: CustomerInstitutionParams,
    simple: true,
    filter: async (_db, _customer, params) => ({ institutionId: params.institutionId }),
  });
}
