import Type from 'typebox';
import { TRANSACTION_CATEGORIES } from '../../../connectors/categories.js';
import {
  DashboardRule,
  DashboardRuleBody,
  DashboardRulePreview,
  DashboardRulePreviewBody,
  DashboardRulesApplied,
  DashboardRulesPage,
} from '../../../contract/schemas/dashboard.js';
import { errorResponses } from '../../../contract/schemas/common.js';
import { applyRulesToStored, previewRule } from '../../../modules/aggregation/rules-apply.service.js';
import { createRule, deleteRule, listRules, replaceRule } from '../../../modules/rules/service.js';
import { epochSeconds } from '../../../platform/clock.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { dashboardNoContent, dashboardResponses } from './common.js';

const RuleParams = Type.Object({ ruleId: Type.String({ maxLength: 20 }) });
const ApplyBody = Type.Object({ customerId: Type.Optional(Type.String({ maxLength: 20 })) });

/** GET /dashboard/api/rules: the partner's transaction rules in the order they apply, and the categories they may set. */
export function getRules(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/rules', {
    schema: { hide: true, summary: "The partner's transaction rules", response: dashboardResponses(DashboardRulesPage) },
    handler: async (request) => ({ rules: await listRules(runtime.database.kysely, request.dashboard.partnerId), categories: [...TRANSACTION_CATEGORIES] }),
  });
}

/** POST /dashboard/api/rules: saves a rule, as the API does (201). */
export function addRule(app: App, runtime: Runtime): void {
  app.post('/dashboard/api/rules', {
    schema: {
      hide: true,
      summary: 'Create a transaction rule',
      body: DashboardRuleBody,
      response: { 201: DashboardRule, ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await createRule(runtime.database.kysely, request.dashboard.partnerId, request.body, epochSeconds(runtime.clock))),
  });
}

/** PUT /dashboard/api/rules/:ruleId: replaces a rule. */
export function putRule(app: App, runtime: Runtime): void {
  app.put('/dashboard/api/rules/:ruleId', {
    schema: { hide: true, summary: 'Replace a transaction rule', params: RuleParams, body: DashboardRuleBody, response: dashboardResponses(DashboardRule) },
    handler: async (request) =>
      replaceRule(runtime.database.kysely, request.dashboard.partnerId, request.params.ruleId, request.body, epochSeconds(runtime.clock)),
  });
}

/** DELETE /dashboard/api/rules/:ruleId: deletes a rule (204). */
export function removeRule(app: App, runtime: Runtime): void {
  app.delete('/dashboard/api/rules/:ruleId', {
    schema: { hide: true, summary: 'Delete a transaction rule', params: RuleParams, response: dashboardNoContent() },
    handler: async (request, reply) => {
      await deleteRule(runtime.database.kysely, request.dashboard.partnerId, request.params.ruleId);
      return reply.code(204).send(null);
    },
  });
}

/** POST /dashboard/api/rules/preview: what a rule would change before it is saved; writes nothing. */
export function previewDashboardRule(app: App, _runtime: Runtime): void {
  app.post('/dashboard/api/rules/preview', {
    schema: { hide: true, summary: 'Preview a transaction rule', body: DashboardRulePreviewBody, response: dashboardResponses(DashboardRulePreview) },
    handler: async (request) => previewRule(app.engine, request.dashboard.partnerId, request.body.rule, request.body.replacesRuleId, request.body.customerId),
  });
}

/** POST /dashboard/api/rules/apply: applies the rules again to stored transactions, with their TxPUSH events. */
export function applyDashboardRules(app: App, _runtime: Runtime): void {
  app.post('/dashboard/api/rules/apply', {
    schema: { hide: true, summary: 'Apply the transaction rules to stored transactions', body: ApplyBody, response: dashboardResponses(DashboardRulesApplied) },
    handler: async (request) => applyRulesToStored(app.engine, request.dashboard.partnerId, request.body?.customerId),
  });
}
