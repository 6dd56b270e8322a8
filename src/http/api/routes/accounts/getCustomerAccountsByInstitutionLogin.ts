import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { InstitutionLoginParams } from '../../../../contract/schemas/accounts.js';
import { accountListRoute } from './lists.js';

/** GET /aggregation/v1/customers/{customerId}/institutionLogins/{institutionLoginId}/accounts */
export default function getCustomerAccountsByInstitutionLogin(app: App, runtime: Runtime): void {
  accountListRoute(app, runtime, {
    url: '/aggregation/v1/customers/:customerId/institutionLogins/:institutionLoginId/accounts',
    operationId: 'GetCustomerAccountsByInstitutionLogin',
    summary: 'Get customer accounts by institution login',
    description: 'The accounts linked with one set of credentials at one institution. 404 for an unknown institution login.',
    params: InstitutionLoginParams,
    simple: false,
    filter: (params) => ({ institutionLoginId: params.institutionLoginId }),
  });
}
