import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BUNDLE = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));

describe('the built bundle', () => {
  it('is ASCII, so V8 keeps each chunk as a one-byte string (a two-byte one takes twice the memory)', () => {
    const chunks = fs.readdirSync(BUNDLE).filter((name) => name.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(10);
    const wide = chunks.filter((name) => /[^\x00-\x7f]/.test(fs.readFileSync(path.join(BUNDLE, name), 'utf8')));
    expect(wide).toEqual([]);
  });
});
