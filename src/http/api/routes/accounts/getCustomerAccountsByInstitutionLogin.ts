import { getLoginRow } from '../../../../modules/aggregation/accounts.js';
import type { App } from '../../../app-types.js';
import { InstitutionLoginParams } from '../../../../contract/schemas/accounts.js';
import { accountListRoute } from './lists.js';

/** GET /aggregation/v1/customers/{customerId}/institutionLogins/{institutionLoginId}/accounts */
export default function getCustomerAccountsByInstitutionLogin(app: App): void {
  accountListRoute(app, {
    url: '/aggregation/v1/customers/:customerId/institutionLogins/:institutionLoginId/accounts',
    operationId: 'GetCustomerAccountsByInstitutionLogin',
    summary: 'Get customer accounts by institution login',
    description: 'The accounts linked with one set of credentials at one institution. 404 for an unknown institution login.',
    params: InstitutionLoginParams,
    simple: false,
    filter: async (db, customer, params) => ({ institutionLoginId: (await getLoginRow(db, customer, params.institutionLoginId)).id }),
  });
}
