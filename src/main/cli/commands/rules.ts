import type { Static } from 'typebox';
import {
  RULE_ACTION_FIELDS,
  RULE_CONDITION_FIELDS,
  RULE_OPERATORS,
  type Rule,
  type RuleAction,
  type RuleBody,
  type RuleCondition,
  type RuleList,
  type RulesApplied,
} from '../../../contract/schemas/rules.js';
import { createEngine } from '../../../modules/aggregation/engine.js';
import { applyRulesToStored } from '../../../modules/aggregation/rules-apply.service.js';
import { createRule, deleteRule, listRules } from '../../../modules/rules/service.js';
import { enqueuePushNotifications } from '../../../modules/txpush/notify.service.js';
import { epochSeconds } from '../../../platform/clock.js';
import { oneLine, print, printError, printJson } from '../../../platform/terminal-text.js';
import { dataOptions, parse, UsageError } from '../args.js';
import { checkPartnerOption, chooseTarget } from '../mode.js';
import { partnerNote, pickPartner } from '../sandbox-partner.js';
import { clientOptions } from '../settings.js';
import { withRuntime } from '../store.js';

const USAGE =
  'ledgerlink rules list | add --if FIELD:OPERATOR:VALUE... --set FIELD=VALUE... [--position N] [--name TEXT] | remove RULE_ID | apply [--customer ID]  [--partner ID] [--json]  [--url URL --app-key KEY --partner-id ID | --profile NAME | --data DIR]';

const RULES_PATH = '/aggregation/v1/partners/rules';

type Condition = Static<typeof RuleCondition>;
type Action = Static<typeof RuleAction>;

/** `--if payee:contains:whole foods`: the field and operator, then the value (which may hold colons). */
function conditionOf(text: string): Condition {
  const [field = '', operator = '', ...rest] = text.split(':');
  if (!(RULE_CONDITION_FIELDS as readonly string[]).includes(field) || !(RULE_OPERATORS as readonly string[]).includes(operator) || rest.length === 0)
    throw new UsageError(
      `--if "${text}" is not FIELD:OPERATOR:VALUE`,
      `FIELD is one of ${RULE_CONDITION_FIELDS.join(', ')}; OPERATOR one of ${RULE_OPERATORS.join(', ')}; e.g. --if description:contains:"WHOLE FOODS"`,
    );
  return { field: field as Condition['field'], operator: operator as Condition['operator'], value: rest.join(':') };
}

/** `--set category=Groceries`. */
function actionOf(text: string): Action {
  const at = text.indexOf('=');
  const field = at < 0 ? '' : text.slice(0, at);
  if (!(RULE_ACTION_FIELDS as readonly string[]).includes(field))
    throw new UsageError(`--set "${text}" is not FIELD=VALUE`, `FIELD is one of ${RULE_ACTION_FIELDS.join(', ')}; e.g. --set category=Groceries`);
  return { field: field as Action['field'], value: text.slice(at + 1) };
}

/** A rule in a line or two, as people read it. */
function describe(r: Static<typeof Rule>): string {
  const when = r.conditions.map((c) => `${c.field} ${c.operator} ${JSON.stringify(c.value)}`).join(' and ');
  const then = r.actions.map((a) => `${a.field} = ${JSON.stringify(a.value)}`).join(', ');
  return `#${r.id}  position ${r.position}${r.name ? `  ${oneLine(r.name)}` : ''}\n    if ${oneLine(when)}\n    set ${oneLine(then)}`;
}

/**
 * `ledgerlink rules ...`: a partner's transaction rules (docs/aggregation.md, "Rules"): list them, add or remove one,
 * apply them again to stored transactions; through the service's API in client mode, on the data store in direct mode
 * (for --partner, or the store's only partner).
 */
export async function rules(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    argv,
    {
      ...dataOptions,
      ...clientOptions,
      partner: { type: 'string' },
      customer: { type: 'string' },
      if: { type: 'string', multiple: true },
      set: { type: 'string', multiple: true },
      position: { type: 'string' },
      name: { type: 'string' },
    },
    USAGE,
  );
  const [action, id] = positionals;
  if (!action || !['list', 'add', 'remove', 'apply'].includes(action))
    throw new UsageError(action ? `unknown rules action "${action}"` : 'rules needs an action', `usage: ${USAGE}`);

  let body: Static<typeof RuleBody> | undefined;
  if (action === 'add') {
    const conditions = (values.if ?? []).map(conditionOf);
    const actions = (values.set ?? []).map(actionOf);
    if (conditions.length === 0 || actions.length === 0) throw new UsageError('rules add needs at least one --if and one --set', `usage: ${USAGE}`);
    const position = values.position === undefined ? undefined : Number(values.position);
    if (position !== undefined && !(Number.isInteger(position) && position >= 0))
      throw new UsageError(`--position must be a whole number from 0 (got "${values.position}")`, `usage: ${USAGE}`);
    body = { conditions, actions, ...(position !== undefined ? { position } : {}), ...(values.name !== undefined ? { name: values.name } : {}) };
  }
  if (action === 'remove' && !id) throw new UsageError('rules remove needs a rule id', `usage: ${USAGE}`);
  const customerId = values.customer?.trim() || undefined;

  const target = chooseTarget(values);
  let answer: { rules: Static<typeof Rule>[] } | Static<typeof Rule> | Static<typeof RulesApplied> | undefined;
  let note: string;
  if (target.mode === 'client') {
    const { client } = target;
    checkPartnerOption(client, values.partner);
    note = `partner ${client.partnerId} (the partner of the service credentials, at ${client.url})`;
    if (action === 'list') answer = await client.call<Static<typeof RuleList>>('GET', RULES_PATH);
    else if (action === 'add') answer = await client.call<Static<typeof Rule>>('POST', RULES_PATH, { body });
    else if (action === 'remove') await client.call('DELETE', `${RULES_PATH}/${encodeURIComponent(id!)}`);
    else answer = await client.call<Static<typeof RulesApplied>>('POST', `${RULES_PATH}/apply`, { body: customerId ? { customerId } : {} });
  } else {
    ({ answer, note } = await withRuntime(target.dataDir, async (runtime) => {
      const picked = await pickPartner(runtime.database.kysely, values.partner, USAGE, customerId);
      const db = runtime.database.kysely;
      const { partnerId } = picked;
      let result: typeof answer;
      if (action === 'list') result = { rules: await listRules(db, partnerId) };
      else if (action === 'add') result = await createRule(db, partnerId, body!, epochSeconds(runtime.clock));
      else if (action === 'remove') await deleteRule(db, partnerId, id!);
      else result = await applyRulesToStored(createEngine(runtime, { onEventsRecorded: enqueuePushNotifications }), partnerId, customerId);
      return { answer: result, note: partnerNote(picked) };
    }));
  }

  if (values.json) printJson(answer ?? { removed: Number(id) });
  else if (action === 'list') {
    const list = (answer as Static<typeof RuleList>).rules;
    print(list.length === 0 ? 'No rules.' : [`${list.length} rule${list.length === 1 ? '' : 's'}, in the order they apply:`, ...list.map(describe)].join('\n'));
  } else if (action === 'add')
    print(`Added rule ${describe(answer as Static<typeof Rule>)}\nStored transactions change when the rules are applied: ledgerlink rules apply`);
  else if (action === 'remove') print(`Removed rule ${oneLine(id!)}. Stored transactions keep its values until: ledgerlink rules apply`);
  else {
    const { examined, modified } = answer as Static<typeof RulesApplied>;
    print(
      `Applied the rules to ${examined} transaction${examined === 1 ? '' : 's'}${customerId ? ` of customer ${oneLine(customerId)}` : ''}: ${modified} changed.`,
    );
  }
  // On stderr, so what is on stdout reads the same in both modes.
  if (!values.json) printError(`For ${note}.`);
}
