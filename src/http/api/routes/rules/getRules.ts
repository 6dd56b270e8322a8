import { RULE_LIMITS, RuleList } from '../../../../contract/schemas/rules.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { listRules } from '../../../../modules/rules/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /aggregation/v1/partners/rules (Ledgerlink extension): the partner's transaction rules. */
export default function getRules(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/partners/rules', {
    schema: {
      operationId: 'GetRules',
      tags: ['Rules'],
      summary: 'List transaction rules (Ledgerlink extension)',
      description: `The partner's transaction rules in the order they apply: by \`position\`, then in the order they were created; every rule whose conditions hold applies, a later one winning on a field an earlier one set. They apply to every transaction a refresh, a sign-in or a statement file stores, and again to stored ones with POST /aggregation/v1/partners/rules/apply. At most ${RULE_LIMITS.rules} per partner. See docs/aggregation.md, "Rules".`,
      response: { 200: RuleList, ...errorResponses(401, 406) },
    },
    handler: async (request) => ({ rules: await listRules(runtime.database.kysely, request.caller.partnerId) }),
  });
}
