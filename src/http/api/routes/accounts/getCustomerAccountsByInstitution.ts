import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { CustomerInstitutionParams } from '../../../../contract/schemas/accounts.js';
import { accountListRoute } from './lists.js';

/** GET /aggregation/v1/customers/{customerId}/institutions/{institutionId}/accounts */
export default function getCustomerAccountsByInstitution(app: App, runtime: Runtime): void {
  accountListRoute(app, runtime, {
    url: '/aggregation/v1/customers/:customerId/institutions/:institutionId/accounts',
    operationId: 'GetCustomerAccountsByInstitution',
    summary: 'Get customer accounts by institution',
    description: "The customer's accounts at one institution, across its institution logins there (an empty list when there are none).",
    params: CustomerInstitutionParams,
    simple: false,
    filter: (params) => ({ institutionId: params.institutionId }),
  });
}
