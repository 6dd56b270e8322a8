import Type from 'typebox';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { CustomerIdParam } from '../../../../contract/schemas/accounts.js';
import { accountListRoute } from './lists.js';

/** GET /aggregation/v1/customers/{customerId}/accounts/simple */
export default function getCustomerAccountsSimple(app: App, runtime: Runtime): void {
  accountListRoute(app, runtime, {
    url: '/aggregation/v1/customers/:customerId/accounts/simple',
    operationId: 'GetCustomerAccountsSimple',
    summary: 'Get customer accounts (simple)',
    description: 'The basic fields of every account of the customer (no balances, details or positions).',
    params: Type.Object(CustomerIdParam),
    simple: true,
    filter: () => ({}),
  });
}
