import { errorResponses } from '../../../contract/schemas/common.js';
import { SimplefinInfo } from '../../../contract/schemas/simplefin.js';
import { countFreeRequest, SIMPLEFIN_PATH, SIMPLEFIN_VERSIONS } from '../../../modules/simplefin/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';

/** GET /simplefin/info: the protocol versions served (`{"versions": [...]}`); not counted against the budget. */
export default function getSimplefinInfo(app: App, runtime: Runtime): void {
  app.get(`${SIMPLEFIN_PATH}/info`, {
    schema: { response: { 200: SimplefinInfo, ...errorResponses(403) } },
    handler: async (request, reply) => {
      await countFreeRequest(runtime, request.simplefinAccess!);
      return reply.type('application/json').send({ versions: SIMPLEFIN_VERSIONS });
    },
  });
}
