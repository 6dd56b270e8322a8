import { ErrorCatalogue } from './catalogue.js';
import { linkReferences } from './doc-links.js';

/** docs/errors.md, generated from the catalogue so the two cannot drift apart. */
export function renderErrorsDoc(): string {
  const rows = Object.entries(ErrorCatalogue)
    .sort(([, a], [, b]) => Number(a.code) - Number(b.code))
    .map(([name, d]) => `| ${d.code} | ${d.status} | ${name} | ${d.message} | ${linkReferences(d.when)} |`);
  return [
    '# Error codes',
    '',
    '<!-- Generated from src/contract/errors/catalogue.ts by `npm run docs:errors`; a test fails when they differ. -->',
    '',
    'Every error response has the body `{"code": "...", "message": "..."}` (JSON) or',
    '`<error><code>...</code><message>...</message></error>` (XML), in the format the `Accept` header asked for.',
    'When `Accept` allows neither, the 406 error itself is JSON. `code` is a numeric string; codes shared with the',
    'real-world service keep its numbers. Messages may be more specific than the defaults below (they name the field',
    'or say what is expected); match on `code`, not on `message`.',
    '',
    'Ledgerlink never answers 500 to bad input: a 500 (code 10500) is a fault in the service, logged with its details.',
    '',
    '| code | HTTP | name | default message | when |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
