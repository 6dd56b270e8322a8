import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { InstitutionLoginParams } from '../../../../contract/schemas/accounts.js';
import { accountListRoute } from './lists.js';

/** GET /aggregation/v1/customers/{customerId}/institutionLogins/{institutionLoginId}/accounts/simple */
export default function getCustomerAccountsByInstitutionLoginSimple(app: App, runtime: Runtime): void {
  accountListRoute(app, runtime, {
    url: '/aggregation/v1/customers/:customerId/institutionLogins/:institutionLoginId/accounts/simple',
    operationId: 'GetCustomerAccountsByInstitutionLoginSimple',
    summary: 'Get customer accounts by institution login (simple)',
    description: 'The basic fields of the accounts of one institution login. 404 for an unknown institution login.',
    params: InstitutionLoginParams,
    simple: true,
    filter: (params) => ({ institutionLoginId: params.institutionLoginId }),
  });
}
