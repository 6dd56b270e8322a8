import { RULE_LIMITS, RulePreview, RulePreviewBody } from '../../../../contract/schemas/rules.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { previewRule as tryRule } from '../../../../modules/aggregation/rules-apply.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** POST /aggregation/v1/partners/rules/preview (Ledgerlink extension): what a rule would change, before it is saved. */
export default function previewRule(app: App, _runtime: Runtime): void {
  app.post('/aggregation/v1/partners/rules/preview', {
    schema: {
      operationId: 'PreviewRule',
      tags: ['Rules'],
      summary: 'Preview a transaction rule (Ledgerlink extension)',
      description: `Tries \`rule\` on the partner's ${RULE_LIMITS.previewExamined} most recent stored transactions (a customer's with \`customerId\`) as if it were saved (in place of \`replacesRuleId\` for an edit) and the rules applied again, changing nothing: how many it matches, how many would change, and the first ${RULE_LIMITS.preview} of those with their values before and after. Checked as a save is (400 14150, 14151); 404 for an unknown rule or customer.`,
      body: RulePreviewBody,
      response: { 200: RulePreview, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => tryRule(app.engine, request.caller.partnerId, request.body.rule, request.body.replacesRuleId, request.body.customerId),
  });
}
