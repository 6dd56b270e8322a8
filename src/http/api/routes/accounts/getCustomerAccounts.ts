import Type from 'typebox';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { CustomerIdParam } from '../../../../contract/schemas/accounts.js';
import { accountListRoute } from './lists.js';

/** GET /aggregation/v1/customers/{customerId}/accounts */
export default function getCustomerAccounts(app: App, runtime: Runtime): void {
  accountListRoute(app, runtime, {
    url: '/aggregation/v1/customers/:customerId/accounts',
    operationId: 'GetCustomerAccounts',
    summary: 'Get customer accounts',
    description:
      "Every account of the customer, grouped by institution login in the institution's display order. `status` and `account_type` keep only accounts with that status or type (e.g. checking). Accounts are listed from linking on; their transactions need an initial aggregation first.",
    params: Type.Object(CustomerIdParam),
    querystring: Type.Object({
      status: Type.Optional(Type.String({ maxLength: 40, description: 'Only accounts with this status (e.g. active)' })),
      account_type: Type.Optional(Type.String({ maxLength: 40, description: 'Only accounts of this type (e.g. checking)' })),
    }),
    simple: false,
    filter: (_params, query) => ({
      ...(query.status?.trim() ? { status: query.status.trim() } : {}),
      ...(query.account_type?.trim() ? { type: query.account_type.trim() } : {}),
    }),
  });
}
