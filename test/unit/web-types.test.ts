import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderWebTypes, WEB_TYPES_FILE } from '../../scripts/generate-web-types.js';

describe('the browser apps’ types', () => {
  it('are in web/shared/contract.ts exactly as generated from the contract schemas (run npm run web:types)', async () => {
    expect(fs.readFileSync(WEB_TYPES_FILE, 'utf8')).toBe(await renderWebTypes());
  });
});
