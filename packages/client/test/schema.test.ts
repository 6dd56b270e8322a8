import fs from 'node:fs';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';

const DESCRIPTION = new URL('../../../openapi/ledgerlink.openapi.json', import.meta.url);
const GENERATED = new URL('../src/schema.ts', import.meta.url);

describe('the generated client types', () => {
  // openapi/ledgerlink.openapi.json itself is checked against the code by test/unit/openapi.test.ts.
  it('match openapi/ledgerlink.openapi.json (run npm run client:types)', async () => {
    const expected = COMMENT_HEADER + astToString(await openapiTS(JSON.parse(fs.readFileSync(DESCRIPTION, 'utf8'))));
    expect(fs.readFileSync(GENERATED, 'utf8')).toBe(expected);
  });
});
