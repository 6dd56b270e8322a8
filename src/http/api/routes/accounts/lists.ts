import type { Static, TSchema } from 'typebox';
import { accountRecords, listAccountRows, toAccountSimpleRecord, type AccountFilter } from '../../../../modules/aggregation/accounts.js';
import type { CustomerRow } from '../../../../modules/customers/table.js';
import type { App } from '../../../app-types.js';
import { cachedCustomerRead } from '../../../response-cache.js';
import { AccountList, AccountSimpleList } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import type { Executor } from '../../../../platform/db/database.js';

export interface AccountListRoute<P extends TSchema, Q extends TSchema | undefined> {
  url: string;
  operationId: string;
  summary: string;
  description: string;
  params: P;
  querystring?: Q;
  /** Full records or the simple ones. */
  simple: boolean;
  /** Which of the customer's accounts (may check that the login or institution exists: 404). */
  filter(db: Executor, customer: CustomerRow, params: Static<P>, query: Q extends TSchema ? Static<Q> : undefined): Promise<AccountFilter>;
}

/** Registers one of the account list operations (all, by login, by institution; full or simple). */
export function accountListRoute<P extends TSchema, Q extends TSchema | undefined = undefined>(app: App, spec: AccountListRoute<P, Q>): void {
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
      const db = app.engine.runtime.database.kysely;
      const params = request.params as Static<P> & { customerId: string };
      return cachedCustomerRead(app, request, reply, params.customerId, async (customer) => {
        const rows = await listAccountRows(db, customer, await spec.filter(db, customer, params, request.query as never));
        return { accounts: spec.simple ? rows.map(toAccountSimpleRecord) : await accountRecords(db, rows) };
      });
    },
  });
}
