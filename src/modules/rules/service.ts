/**
 * A partner's transaction rules (docs/aggregation.md, "Rules"): checked when saved (operators that fit their field,
 * amounts and ids that are numbers, known categories, patterns that cannot run for long), kept in the order they
 * apply, at most RULE_LIMITS.rules per partner. Applying them is evaluate.ts; on what a source gives, fetched.service.ts;
 * again on stored transactions, the aggregation module's rules-apply.service.ts.
 */
import type { Static } from 'typebox';
import { TRANSACTION_CATEGORIES } from '../../connectors/categories.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { RULE_FIELD_OPERATORS, RULE_LIMITS, type Rule, type RuleAction, type RuleBody, type RuleCondition } from '../../contract/schemas/rules.js';
import type { Executor } from '../../platform/db/database.js';
import { parseCustomerId } from '../customers/service.js';
import { type CompiledRule, compileRule } from './evaluate.js';
import { compilePattern } from './pattern.js';
import * as repo from './repository.js';
import type { RuleRow } from './table.js';

export type RuleRecord = Static<typeof Rule>;
export type RuleInput = Static<typeof RuleBody>;
type Condition = Static<typeof RuleCondition>;
type Action = Static<typeof RuleAction>;

const CATEGORIES = new Set<string>(TRANSACTION_CATEGORIES);
const AMOUNT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

const invalid = (message: string) => new ServiceError('RuleInvalid', message);

function checkCondition(c: Condition, n: number): Condition {
  const where = `condition ${n + 1} (${c.field} ${c.operator})`;
  if (!RULE_FIELD_OPERATORS[c.field].includes(c.operator))
    throw invalid(`The ${where} does not fit: ${c.field} takes ${RULE_FIELD_OPERATORS[c.field].join(', ')}.`);
  const value = c.value.trim();
  if (c.field === 'amount' && !AMOUNT.test(value)) throw invalid(`The value of ${where} must be an amount such as -25.50, not ${JSON.stringify(c.value)}.`);
  if ((c.field === 'account' || c.field === 'institution') && parseCustomerId(value) === undefined)
    throw invalid(`The value of ${where} must be ${c.field === 'account' ? 'an account' : 'an institution'} id, not ${JSON.stringify(c.value)}.`);
  if (c.operator === 'matches') compilePattern(c.value);
  // A pattern keeps its spaces; other values are compared trimmed.
  return { field: c.field, operator: c.operator, value: c.operator === 'matches' ? c.value : value };
}

function checkAction(a: Action, n: number, seen: Set<string>): Action {
  const where = `action ${n + 1} (${a.field})`;
  if (seen.has(a.field)) throw invalid(`The ${where} sets ${a.field} again: a rule sets each field once.`);
  seen.add(a.field);
  const value = a.value.trim();
  if (a.field === 'category' && !CATEGORIES.has(value))
    throw invalid(`The ${where} names no known category: ${JSON.stringify(a.value)} (the categories are listed in docs/aggregation.md).`);
  if (a.field === 'payee' && value === '') throw invalid(`The ${where} needs a payee name.`);
  return { field: a.field, value };
}

/** The rule as stored, or RuleInvalid / RulePatternRefused naming what is wrong. */
export function checkRule(input: RuleInput): { name: string | null; position: number; conditions: Condition[]; actions: Action[] } {
  const seen = new Set<string>();
  return {
    name: input.name?.trim() || null,
    position: input.position ?? 0,
    conditions: input.conditions.map(checkCondition),
    actions: input.actions.map((a, n) => checkAction(a, n, seen)),
  };
}

function toRecord(row: RuleRow): RuleRecord {
  return {
    id: Number(row.id),
    ...(row.name ? { name: row.name } : {}),
    position: Number(row.position),
    conditions: JSON.parse(row.conditions) as Condition[],
    actions: JSON.parse(row.actions) as Action[],
    createdDate: Number(row.created_at),
    modifiedDate: Number(row.updated_at),
  };
}

function stored(rule: ReturnType<typeof checkRule>) {
  return { name: rule.name, position: rule.position, conditions: JSON.stringify(rule.conditions), actions: JSON.stringify(rule.actions) };
}

/** A rule id from a path; undefined when it cannot be one (answered like an unknown id). */
export function parseRuleId(value: string): number | undefined {
  return parseCustomerId(value);
}

const notFound = () => new ServiceError('ResourceNotFound', 'Rule not found.');

/** The partner's rules, in the order they apply. */
export async function listRules(db: Executor, partnerId: string): Promise<RuleRecord[]> {
  return (await repo.selectRules(db, partnerId)).map(toRecord);
}

/** One of the partner's rules; 404 for an unknown id or another partner's. */
export async function getRule(db: Executor, partnerId: string, ruleId: string): Promise<RuleRecord> {
  const id = parseRuleId(ruleId);
  const row = id === undefined ? undefined : await repo.findRule(db, partnerId, id);
  if (!row) throw notFound();
  return toRecord(row);
}

const patternsOf = (conditions: readonly Condition[]) => conditions.filter((c) => c.operator === 'matches').length;

/** RulePatternRefused when the partner's rules would hold more `matches` conditions than it may keep (`replacing`: a rule's own). */
async function checkPatternCount(db: Executor, partnerId: string, rule: ReturnType<typeof checkRule>, replacing?: number): Promise<void> {
  const adding = patternsOf(rule.conditions);
  if (adding === 0) return;
  const rows = await repo.selectRules(db, partnerId);
  const kept = rows.filter((r) => Number(r.id) !== replacing).reduce((n, r) => n + patternsOf(JSON.parse(r.conditions) as Condition[]), 0);
  if (kept + adding > RULE_LIMITS.patterns)
    throw new ServiceError(
      'RulePatternRefused',
      `The partner's rules may hold ${RULE_LIMITS.patterns} \`matches\` conditions in all, and hold ${kept}: use \`contains\` or \`equals\`, or delete a pattern first.`,
    );
}

/** Saves a new rule; 409 RuleLimitReached past the partner's cap. */
export async function createRule(db: Executor, partnerId: string, input: RuleInput, now: number): Promise<RuleRecord> {
  const rule = checkRule(input);
  if ((await repo.countRules(db, partnerId)) >= RULE_LIMITS.rules)
    throw new ServiceError('RuleLimitReached', `The partner has ${RULE_LIMITS.rules} rules, the most it may keep: delete one before adding another.`);
  await checkPatternCount(db, partnerId, rule);
  return toRecord(await repo.insertRule(db, partnerId, stored(rule), now));
}

/** Replaces one of the partner's rules (it keeps its id and creation date, so its place among rules of its position). */
export async function replaceRule(db: Executor, partnerId: string, ruleId: string, input: RuleInput, now: number): Promise<RuleRecord> {
  const id = parseRuleId(ruleId);
  // Another partner's rule is an unknown one, whatever the body says: looked up before the body is judged.
  if (id === undefined || !(await repo.findRule(db, partnerId, id))) throw notFound();
  const rule = checkRule(input);
  await checkPatternCount(db, partnerId, rule, id);
  const row = await repo.updateRule(db, partnerId, id, stored(rule), now);
  if (!row) throw notFound();
  return toRecord(row);
}

/** Deletes one of the partner's rules; 404 when it has none of this id. */
export async function deleteRule(db: Executor, partnerId: string, ruleId: string): Promise<void> {
  const id = parseRuleId(ruleId);
  if (id === undefined || !(await repo.deleteRule(db, partnerId, id))) throw notFound();
}

/** The partner's rules ready to be tried, in order. */
export async function partnerRules(db: Executor, partnerId: string): Promise<CompiledRule[]> {
  return (await repo.selectRules(db, partnerId)).map((row) => compileRule(toRecord(row)));
}

/**
 * The partner's rules with `candidate` in the place it would take, replacing rule `replaces` (a preview of a rule
 * before it is saved): the candidate is checked as a save would.
 */
export async function rulesWithCandidate(db: Executor, partnerId: string, candidate: RuleInput, replaces: string | undefined): Promise<CompiledRule[]> {
  const rule = checkRule(candidate);
  const rows = await repo.selectRules(db, partnerId);
  const replacedId = replaces === undefined ? undefined : parseRuleId(replaces);
  const replaced = replacedId === undefined ? undefined : rows.find((r) => Number(r.id) === replacedId);
  if (replaces !== undefined && !replaced) throw notFound();
  // A new rule comes after every rule of its position; an edited one keeps its id (its place among them).
  const candidateId = replaced ? Number(replaced.id) : Number.MAX_SAFE_INTEGER;
  const all = rows
    .filter((r) => r !== replaced)
    .map((r) => toRecord(r))
    .concat([{ id: candidateId, position: rule.position, conditions: rule.conditions, actions: rule.actions, createdDate: 0, modifiedDate: 0 }]);
  all.sort((a, b) => a.position - b.position || a.id - b.id);
  return all.map(compileRule);
}
