import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCatalogue } from '../../src/contract/errors/catalogue.js';
import { renderErrorsDoc } from '../../src/contract/errors/doc.js';

describe('error catalogue', () => {
  it('has unique codes', () => {
    const codes = Object.values(ErrorCatalogue).map((d) => d.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('is documented in docs/errors.md exactly as generated (run npm run docs:errors)', () => {
    expect(fs.readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')).toBe(renderErrorsDoc());
  });
});
