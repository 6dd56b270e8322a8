import { errorResponses } from '../../../contract/schemas/common.js';
import { SimplefinAccountSet, SimplefinAccountsQuery } from '../../../contract/schemas/simplefin.js';
import { readAccountSet, SIMPLEFIN_PATH } from '../../../modules/simplefin/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';

/**
 * GET /simplefin/accounts: the Account Set of the access's accounts (docs/simplefin-server.md): `start-date`,
 * `end-date` (epoch seconds, the end exclusive), `pending=1`, `balances-only=1`, `account` (repeatable).
 */
export default function getSimplefinAccounts(app: App, runtime: Runtime): void {
  app.get(`${SIMPLEFIN_PATH}/accounts`, {
    schema: { querystring: SimplefinAccountsQuery, response: { 200: SimplefinAccountSet, ...errorResponses(400, 403) } },
    handler: async (request, reply) => {
      const q = request.query;
      const set = await readAccountSet(runtime, request.simplefinAccess!, {
        ...(q['start-date'] !== undefined ? { startDate: q['start-date'] } : {}),
        ...(q['end-date'] !== undefined ? { endDate: q['end-date'] } : {}),
        pending: q.pending === 1,
        balancesOnly: q['balances-only'] === 1,
        ...(q.account ? { accountIds: q.account } : {}),
      });
      return reply.type('application/json').send(set);
    },
  });
}
