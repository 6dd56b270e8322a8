import type { Static, TSchema } from 'typebox';
import { listCustomerAccounts, listCustomerAccountsSimple, type AccountListQuery } from '../../../../modules/aggregation/accounts.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { cachedCustomerRead } from '../../../response-cache.js';
import { AccountList, AccountSimpleList } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';

export interface AccountListRoute<P extends TSchema, Q extends TSchema | undefined> {
  url: string;
  operationId: string;
  summary: string;
  description: string;
  params: P;
  querystring?: Q;
  /** Full records or the simple ones. */
  simple: boolean;
  /** Which of the customer's accounts (an institution login named here must be the customer's: 404 otherwise). */
  filter(params: Static<P>, query: Q extends TSchema ? Static<Q> : undefined): AccountListQuery;
}

/** Registers one of the account list operations (all, by login, by institution; full or simple). */
export function accountListRoute<P extends TSchema, Q extends TSchema | undefined = undefined>(app: App, runtime: Runtime, spec: AccountListRoute<P, Q>): void {
  app.get(spec.url, {
    schema: {
      operationId: spec.operationId,
      tags: ['Accounts'],
      summary: spec.summary,
      description: spec.description,
      params: spec.params,
      ...(spec.querystring ? { querystring: spec.querystring } : {}),
      response: { 200: spec.simple ? AccountSimpleList : AccountList, ...errorResponses(400, 401, 404, 406) },
    },
    handler: (request, reply) => {
      const params = request.params as Static<P> & { customerId: string };
      return cachedCustomerRead(app, request, reply, params.customerId, async (customer) => {
        const query = spec.filter(params, request.query as never);
        return {
          accounts: spec.simple ? await listCustomerAccountsSimple(runtime, customer, query) : await listCustomerAccounts(runtime, customer, query),
        };
      });
    },
  });
}
