import { RuleParams } from '../../../../contract/schemas/rules.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { deleteRule as forgetRule } from '../../../../modules/rules/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** DELETE /aggregation/v1/partners/rules/{ruleId} (Ledgerlink extension): deletes a transaction rule (204). */
export default function deleteRule(app: App, runtime: Runtime): void {
  app.delete('/aggregation/v1/partners/rules/:ruleId', {
    schema: {
      operationId: 'DeleteRule',
      tags: ['Rules'],
      summary: 'Delete a transaction rule (Ledgerlink extension)',
      description:
        "Deletes a rule (204). Stored transactions it changed keep its values until POST /aggregation/v1/partners/rules/apply gives them back their source's. 404 for an unknown rule or another partner's.",
      params: RuleParams,
      response: { 204: NoContent, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request, reply) => {
      await forgetRule(runtime.database.kysely, request.caller.partnerId, request.params.ruleId);
      return reply.code(204).send(null);
    },
  });
}
