import { describe, expect, it } from 'vitest';
import { RULE_LIMITS } from '../../src/contract/schemas/rules.js';
import { applyRules, compileRule } from '../../src/modules/rules/evaluate.js';
import { bestTime, bestTimes } from '../helpers/cost.js';

/** A rule whose one condition is a `matches` pattern on the description. */
const patternRule = (pattern: string) =>
  compileRule({ id: 1, conditions: [{ field: 'description', operator: 'matches', value: pattern }], actions: [{ field: 'category', value: 'Gift' }] });

/** Tries the rules on each text as a description. */
function tryAll(rules: ReturnType<typeof patternRule>[], texts: readonly string[]): void {
  for (const description of texts) {
    applyRules(rules, { description, payee: '', amount: -1, accountId: 1, institutionId: 1 }, { category: 'Uncategorized', payee: '', memo: null });
  }
}

// Texts that make the accepted patterns below backtrack the most: long runs of what they repeat, never what ends them.
const run = (length: number, count: number) => Array.from({ length: count }, (_, i) => `${'a'.repeat(length - 4)}${String(i).padStart(4, '0')}`);

describe('the cost of a hostile `matches` pattern', () => {
  for (const pattern of ['a*b', 'a{1,50}b', '\\w*\\d{1,4}!']) {
    it(`${pattern}: grows with the square of the text, not faster (half the text, about a quarter of the time)`, () => {
      const rules = [patternRule(pattern)];
      const full = run(RULE_LIMITS.patternInput, 1500);
      const half = run(RULE_LIMITS.patternInput / 2, 1500);
      bestTime((t) => tryAll(rules, t), half.slice(0, 20), 3);
      const { plain: short, hostile: long } = bestTimes((t) => tryAll(rules, t), half, full);
      // Quadratic: 4; anything exponential in the text's length would be millions of times.
      expect(long / short, `${RULE_LIMITS.patternInput} characters ${long.toFixed(1)} ms, half ${short.toFixed(1)} ms`).toBeLessThan(12);
    });

    it(`${pattern}: stops at the first ${RULE_LIMITS.patternInput} characters of a longer text`, () => {
      const rules = [patternRule(pattern)];
      const capped = run(RULE_LIMITS.patternInput, 400);
      const longer = run(RULE_LIMITS.patternInput * 100, 400);
      bestTime((t) => tryAll(rules, t), capped.slice(0, 20), 3);
      const { plain, hostile } = bestTimes((t) => tryAll(rules, t), capped, longer);
      // Without the cap the longer texts would cost 10,000 times as much; with it, cutting them is the difference.
      expect(hostile / plain, `texts 100 times as long ${hostile.toFixed(1)} ms, at the cap ${plain.toFixed(1)} ms`).toBeLessThan(5);
    });
  }
});
