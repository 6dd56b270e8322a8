import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../../src/http/json-depth.js';

/** The nesting depth JSON.parse builds: objects and arrays, the outermost being level 1. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((max, child) => Math.max(max, depthOf(child)), 0);
}

const nested = (levels: number, inner = '1') => {
  let text = inner;
  for (let i = 0; i < levels; i++) text = i % 2 ? `[${text}]` : `{"k${i}":${text}}`;
  return text;
};

describe('the JSON nesting limit', () => {
  it(`accepts exactly ${MAX_JSON_DEPTH} levels of objects and arrays and refuses ${MAX_JSON_DEPTH + 1}`, () => {
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDeeperThan('['.repeat(5000) + ']'.repeat(5000), MAX_JSON_DEPTH)).toBe(true);
  });

  it('does not count brackets inside strings, however they are escaped', () => {
    const bodies = [
      JSON.stringify({ a: '['.repeat(5000) }),
      JSON.stringify({ a: '{"b":'.repeat(5000) }),
      JSON.stringify({ a: '\\"[[[[' + '['.repeat(5000) }),
      JSON.stringify({ a: '\\'.repeat(101) + '"' + '['.repeat(5000) }),
      JSON.stringify(['"', '[[[[', '\\', '{{{{']),
    ];
    for (const body of bodies) expect(jsonDeeperThan(body, MAX_JSON_DEPTH), body.slice(0, 40)).toBe(false);
  });

  it('counts brackets that follow a string ending in escaped backslashes', () => {
    // "\\" ends the string (an escaped backslash), so the brackets after it are structure.
    const body = `["\\\\",${nested(MAX_JSON_DEPTH)}]`;
    expect(() => JSON.parse(body)).not.toThrow();
    expect(jsonDeeperThan(body, MAX_JSON_DEPTH)).toBe(true);
  });

  it('agrees with the depth JSON.parse builds for any JSON, compact or indented, with any strings', () => {
    const text = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', ',', ':', 'a', ' ', '\u2028', '\u{1F600}') });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(text, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 6 }), fc.boolean(), (v, max, indent) => {
        const body = JSON.stringify(v, null, indent ? 2 : undefined);
        expect(jsonDeeperThan(body, max)).toBe(depthOf(JSON.parse(body)) > max);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the cost of checking hostile JSON bodies', () => {
  const MiB = 1 << 20;
  /** About 1 MiB each, built to make a scanner do more than linear work. */
  const hostile: Record<string, string> = {
    'many escaped quotes in one string': '["' + '\\"'.repeat(MiB / 2) + '"]',
    'long runs of backslashes before quotes': '["' + ('\\'.repeat(999) + '"').repeat(MiB / 1000) + '"]',
    'one run of backslashes': '["' + '\\'.repeat(MiB) + '"]',
    'many quotes': '['.concat('"",'.repeat(MiB / 3), '""]'),
    'one unterminated string': '["' + 'x'.repeat(MiB),
    'many brackets inside a string': '["' + '['.repeat(MiB) + '"]',
    'many closing brackets': ']'.repeat(MiB) + '['.repeat(20),
    'many empty arrays': '[' + '[],'.repeat(MiB / 3) + '[]]',
  };
  const plainBody = JSON.stringify(Array.from({ length: MiB / 32 }, (_, i) => ({ id: i, name: `n${i}`, ok: true })));

  function cost(text: string): number {
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      jsonDeeperThan(text, MAX_JSON_DEPTH);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  }

  let plain: number;
  beforeAll(() => {
    plain = Math.max(cost(plainBody), 1);
  });

  it.each(Object.keys(hostile))('%s costs at most three times a plain body of the same size', (name) => {
    const took = cost(hostile[name]!);
    expect(took / plain, `${name}: ${took.toFixed(1)} ms, plain ${plain.toFixed(1)} ms`).toBeLessThan(3);
  });
});
