/**
 * The regular expressions of `matches` conditions. JavaScript's engine backtracks, and a rule is tried on every
 * transaction stored, inside the write transaction of a refresh: a pattern that could backtrack for long on some text
 * is refused when the rule is saved, rather than timed while it runs (a time bound would make a transaction's category
 * depend on the machine's load). What is refused: repeated groups holding a repetition or an alternative (`(a+)+`,
 * `(a|ab)*`: exponential), back-references and look-arounds, more than one unbounded repetition (`.*a.*b`: each adds
 * a power of the text's length), and bounded repetitions offering too many choices together. Patterns are tried on at
 * most the first RULE_LIMITS.patternInput characters of a text. docs/aggregation.md, "Rules", says the same.
 */
import { ServiceError } from '../../contract/errors/service-error.js';
import { RULE_LIMITS } from '../../contract/schemas/rules.js';

/** Most unbounded repetitions (`*`, `+`, `{n,}`) in one pattern. */
export const MAX_UNBOUNDED_REPETITIONS = 1;
/** Most choices the bounded repetitions of a pattern give together (`\d{1,4}` gives 4; their product is counted). */
export const MAX_BOUNDED_CHOICES = 50;

interface Group {
  repeats: boolean;
  alternates: boolean;
}

const refuse = (pattern: string, why: string) =>
  new ServiceError('RulePatternRefused', `The pattern ${JSON.stringify(pattern)} of a \`matches\` condition is refused: ${why}.`);

/** Where the class starting at `i` (its `[`) ends: the index of its `]`. */
function classEnd(p: string, i: number): number {
  for (let j = i + 1; j < p.length; j++) {
    if (p[j] === '\\') j++;
    else if (p[j] === ']' && j > i + 1) return j;
  }
  return p.length - 1;
}

/** A quantifier at `i`: its bounds and its length, or undefined when none starts there. */
function quantifierAt(p: string, i: number): { min: number; max: number; length: number } | undefined {
  const c = p[i];
  if (c === '*') return { min: 0, max: Number.POSITIVE_INFINITY, length: 1 };
  if (c === '+') return { min: 1, max: Number.POSITIVE_INFINITY, length: 1 };
  if (c === '?') return { min: 0, max: 1, length: 1 };
  if (c !== '{') return undefined;
  const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
  if (!m) return undefined;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : m[3] === '' ? Number.POSITIVE_INFINITY : Number(m[3]);
  return { min, max, length: m[0].length };
}

/**
 * The compiled pattern (case ignored, Unicode), or a RulePatternRefused error saying why it is refused.
 */
export function compilePattern(pattern: string): RegExp {
  if (pattern.length > RULE_LIMITS.patternLength) throw refuse(pattern, `it is longer than ${RULE_LIMITS.patternLength} characters`);
  let compiled: RegExp;
  try {
    compiled = new RegExp(pattern, 'iu');
  } catch (e) {
    throw refuse(pattern, `it is not a valid regular expression (${(e as Error).message.replace(/^Invalid regular expression: /, '')})`);
  }

  const stack: Group[] = [{ repeats: false, alternates: false }];
  let closed: Group | undefined;
  let unbounded = 0;
  let choices = 1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const quantifier = quantifierAt(pattern, i);
    if (quantifier) {
      const repeats = quantifier.max > 1;
      if (closed && (closed.repeats || (repeats && closed.alternates)))
        throw refuse(pattern, 'a repeated group holds a repetition or an alternative, which can take exponential time');
      if (quantifier.max === Number.POSITIVE_INFINITY) {
        unbounded++;
        if (unbounded > MAX_UNBOUNDED_REPETITIONS)
          throw refuse(pattern, `it has more than ${MAX_UNBOUNDED_REPETITIONS} unbounded repetition (*, +, {n,}), which can take polynomial time`);
      } else {
        choices *= quantifier.max - quantifier.min + 1;
        if (choices > MAX_BOUNDED_CHOICES) throw refuse(pattern, `its bounded repetitions give more than ${MAX_BOUNDED_CHOICES} choices together`);
      }
      for (const g of stack) g.repeats = true;
      i += quantifier.length - 1;
      if (pattern[i + 1] === '?') i++;
      closed = undefined;
      continue;
    }
    closed = undefined;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9k]/.test(next)) throw refuse(pattern, 'back-references are not supported');
      // \p{...}, \u{...}: the braces are part of the escape, not a quantifier.
      if (/[pPu]/.test(next) && pattern[i + 2] === '{') i = pattern.indexOf('}', i);
      else i++;
    } else if (c === '[') {
      i = classEnd(pattern, i);
    } else if (c === '(') {
      if (/^\(\?<?[=!]/.test(pattern.slice(i))) throw refuse(pattern, 'look-aheads and look-behinds are not supported');
      stack.push({ repeats: false, alternates: false });
      if (pattern[i + 1] === '?') i = pattern[i + 2] === '<' ? pattern.indexOf('>', i) : i + 2;
    } else if (c === ')') {
      closed = stack.pop();
      // A group's repetitions and alternatives are also its enclosing group's.
      const outer = stack[stack.length - 1]!;
      if (closed?.repeats) outer.repeats = true;
      if (closed?.alternates) outer.alternates = true;
    } else if (c === '|') {
      stack[stack.length - 1]!.alternates = true;
    }
  }
  return compiled;
}
