import { Rule, RuleBody, RuleParams } from '../../../../contract/schemas/rules.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { replaceRule as saveRule } from '../../../../modules/rules/service.js';
import { epochSeconds } from '../../../../platform/clock.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** PUT /aggregation/v1/partners/rules/{ruleId} (Ledgerlink extension): replaces a transaction rule. */
export default function replaceRule(app: App, runtime: Runtime): void {
  app.put('/aggregation/v1/partners/rules/:ruleId', {
    schema: {
      operationId: 'ReplaceRule',
      tags: ['Rules'],
      summary: 'Replace a transaction rule (Ledgerlink extension)',
      description:
        "Replaces a rule with the one sent (its id and creation date stay, so its place among the rules of its position). Stored transactions keep their values until POST /aggregation/v1/partners/rules/apply. 404 for an unknown rule or another partner's; 400 as for a new rule.",
      params: RuleParams,
      body: RuleBody,
      response: { 200: Rule, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => saveRule(runtime.database.kysely, request.caller.partnerId, request.params.ruleId, request.body, epochSeconds(runtime.clock)),
  });
}
