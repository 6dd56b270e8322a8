import { RulesApplied, RulesApplyBody } from '../../../../contract/schemas/rules.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { applyRulesToStored, RULES_APPLY_SLICE } from '../../../../modules/aggregation/rules-apply.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** POST /aggregation/v1/partners/rules/apply (Ledgerlink extension): applies the rules again to stored transactions. */
export default function applyRules(app: App, _runtime: Runtime): void {
  app.post('/aggregation/v1/partners/rules/apply', {
    schema: {
      operationId: 'ApplyRules',
      tags: ['Rules'],
      summary: 'Apply the transaction rules to stored transactions (Ledgerlink extension)',
      description: `Recomputes the category, payee and memo of the partner's stored transactions (one customer's with \`customerId\`) from what their source gave and the rules as they are now: a rule added or changed shows, a rule deleted stops showing. Each transaction that changes gets a TxPUSH \`modified\` event; none when nothing changes. Written ${RULES_APPLY_SLICE} transactions at a time, each slice committed on its own. 404 for an unknown customer or another partner's.`,
      body: RulesApplyBody,
      response: { 200: RulesApplied, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => applyRulesToStored(app.engine, request.caller.partnerId, request.body?.customerId),
  });
}
