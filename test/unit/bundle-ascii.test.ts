import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { asciiOnly } from '../../scripts/bundle.mjs';

/** What a script's last expression gives. */
const run = (source: string): unknown => vm.runInNewContext(source);

describe('the bundle written in ASCII', () => {
  it('escapes comments and regular expressions, which esbuild leaves as written, without changing what they do', () => {
    const source = [
      '// a dash — in a comment',
      '/** and ’ here */',
      'const r = /[‘’]x|\\’y|€+/g;',
      'const u = /😀+/u;',
      "['’x ’y €€', '😀😀'].map((s, i) => s.replace(i ? u : r, '-'))",
    ].join('\n');
    const ascii = asciiOnly(source, 'chunk.js');
    expect(ascii).toMatch(/^[\x00-\x7f]*$/);
    expect(ascii).toContain('// a dash \\u2014 in a comment');
    expect(run(ascii)).toEqual(run(source));
    expect(run(ascii)).toEqual(['- - -', '-']);
  });

  it('leaves an ASCII chunk as it is', () => {
    const source = 'export const a = "\\u2019";\n';
    expect(asciiOnly(source, 'chunk.js')).toBe(source);
  });

  it('stops where an escape would change the program: a template, whose raw text a tag may read', () => {
    expect(() => asciiOnly('const a = 1;\nString.raw`’`;\n', 'chunk.js')).toThrow(/^chunk\.js:2: a non-ASCII character outside/);
  });
});
