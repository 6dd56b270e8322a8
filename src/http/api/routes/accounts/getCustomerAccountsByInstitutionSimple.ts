import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { CustomerInstitutionParams } from '../../../../contract/schemas/accounts.js';
import { accountListRoute } from './lists.js';

/** GET /aggregation/v1/customers/{customerId}/institutions/{institutionId}/accounts/simple */
export default function getCustomerAccountsByInstitutionSimple(app: App, runtime: Runtime): void {
  accountListRoute(app, runtime, {
    url: '/aggregation/v1/customers/:customerId/institutions/:institutionId/accounts/simple',
    operationId: 'GetCustomerAccountsByInstitutionSimple',
    summary: 'Get customer accounts by institution (simple)',
    description: "The basic fields of the customer's accounts at one institution (an empty list when there are none).",
    params: CustomerInstitutionParams,
    simple: true,
    filter: (params) => ({ institutionId: params.institutionId }),
  });
}
