import { Rule, RULE_LIMITS, RuleBody } from '../../../../contract/schemas/rules.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { createRule as saveRule } from '../../../../modules/rules/service.js';
import { epochSeconds } from '../../../../platform/clock.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** POST /aggregation/v1/partners/rules (Ledgerlink extension): saves a transaction rule (201). */
export default function createRule(app: App, runtime: Runtime): void {
  app.post('/aggregation/v1/partners/rules', {
    schema: {
      operationId: 'CreateRule',
      tags: ['Rules'],
      summary: 'Create a transaction rule (Ledgerlink extension)',
      description: `Saves a rule (201): conditions on a transaction's description, payee, amount, account or institution, all of which must hold, and actions setting its category, payee or memo. It applies to transactions stored from now on; POST /aggregation/v1/partners/rules/apply applies it to stored ones, and POST /aggregation/v1/partners/rules/preview shows what it would change first. 400 14150 for a condition or action that does not fit, 400 14151 for a refused \`matches\` pattern, 409 14152 past ${RULE_LIMITS.rules} rules. See docs/aggregation.md, "Rules".`,
      body: RuleBody,
      response: { 201: Rule, ...errorResponses(400, 401, 406, 409) },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await saveRule(runtime.database.kysely, request.caller.partnerId, request.body, epochSeconds(runtime.clock))),
  });
}
