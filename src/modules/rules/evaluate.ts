/**
 * Trying rules on a transaction. Every rule's conditions are tried on the source's values (never on what an earlier
 * rule set), so whether a rule applies does not depend on the others; the rules that apply set their fields in order,
 * a later one winning on a field an earlier one set (docs/aggregation.md, "Rules").
 */
import type { Static } from 'typebox';
import { RULE_LIMITS, type RuleAction, type RuleCondition } from '../../contract/schemas/rules.js';
import { compilePattern } from './pattern.js';

/** What a rule looks at, and the values its actions may replace. */
export interface RuleSubject {
  description: string;
  payee: string;
  amount: number;
  accountId: number;
  institutionId: number;
}

/** The values rules set. */
export interface RuledValues {
  category: string;
  payee: string;
  memo: string | null;
}

/** A rule ready to be tried: its conditions as tests, its actions as they are. */
export interface CompiledRule {
  id: number;
  test: (subject: RuleSubject) => boolean;
  actions: readonly Static<typeof RuleAction>[];
}

/** Amounts are compared to the cent: stored amounts are decimals read from text, so never exactly equal otherwise. */
const CENT = 0.005;

function conditionTest(c: Static<typeof RuleCondition>): (s: RuleSubject) => boolean {
  const text = (s: RuleSubject) => (c.field === 'payee' ? s.payee : s.description);
  const wanted = c.value.trim().toLowerCase();
  switch (c.field) {
    case 'amount': {
      const amount = Number(c.value);
      if (c.operator === 'greaterThan') return (s) => s.amount > amount;
      if (c.operator === 'lessThan') return (s) => s.amount < amount;
      return (s) => Math.abs(s.amount - amount) < CENT;
    }
    case 'account':
      return (s) => s.accountId === Number(c.value);
    case 'institution':
      return (s) => s.institutionId === Number(c.value);
    default:
      if (c.operator === 'matches') {
        const re = compilePattern(c.value);
        return (s) => re.test(text(s).slice(0, RULE_LIMITS.patternInput));
      }
      if (c.operator === 'equals') return (s) => text(s).trim().toLowerCase() === wanted;
      return (s) => text(s).toLowerCase().includes(wanted);
  }
}

/** Makes a checked rule ready to be tried (conditions are checked when saved: see service.ts). */
export function compileRule(rule: {
  id: number;
  conditions: readonly Static<typeof RuleCondition>[];
  actions: readonly Static<typeof RuleAction>[];
}): CompiledRule {
  const tests = rule.conditions.map(conditionTest);
  return { id: rule.id, test: (s) => tests.every((t) => t(s)), actions: rule.actions };
}

/** The values after the rules that apply to `subject` (in order) set theirs over the source's; `applied`: their ids. */
export function applyRules(rules: readonly CompiledRule[], subject: RuleSubject, source: RuledValues): { values: RuledValues; applied: number[] } {
  const values = { ...source };
  const applied: number[] = [];
  for (const rule of rules) {
    if (!rule.test(subject)) continue;
    applied.push(rule.id);
    for (const a of rule.actions) {
      if (a.field === 'memo') values.memo = a.value === '' ? null : a.value;
      else values[a.field] = a.value;
    }
  }
  return { values, applied };
}

/** Whether two sets of values differ. */
export function valuesDiffer(a: RuledValues, b: RuledValues): boolean {
  return a.category !== b.category || a.payee !== b.payee || (a.memo ?? null) !== (b.memo ?? null);
}
