/**
 * The /docs page: the OpenAPI description rendered on the server into plain, accessible HTML (openapi-html.ts).
 * The npm renderers were measured with axe first and none passed without patching their markup (README,
 * "Libraries and why"). The page runs no script, so its Content-Security-Policy allows none.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { ErrorCatalogue } from '../../contract/errors/catalogue.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { renderReferencePage } from './openapi-html.js';

type Json = Record<string, unknown>;

const asset = (name: string) => fileURLToPath(new URL(`../../../assets/${name}`, import.meta.url));

/** The files the page loads, by their name under /docs/assets/. */
const FILES: Record<string, { file: string; type: string }> = {
  'docs.css': { file: asset('docs/docs.css'), type: 'text/css; charset=utf-8' },
  'ledgerlink-logo.svg': { file: asset('ledgerlink-logo.svg'), type: 'image/svg+xml' },
};

/** Its own stylesheet and images only; no script at all; never framed. */
export const DOCS_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** GET /docs and its files under /docs/assets/. The page is rendered once, on first request. */
export function docsPage(scope: FastifyInstance, description: () => Json): void {
  let html: string | undefined;
  const files = new Map<string, Buffer>();
  scope.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
    html ??= renderReferencePage({ description: description(), errors: ErrorCatalogue, logoUrl: '/docs/assets/ledgerlink-logo.svg' });
    return reply
      .type('text/html; charset=utf-8')
      .headers({
        'content-security-policy': DOCS_CSP,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
      })
      .send(html);
  });
  scope.get('/docs/assets/:file', { schema: { hide: true } }, async (request, reply) => {
    const name = (request.params as { file: string }).file;
    const known = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
    if (!known) throw new ServiceError('ResourceNotFound', 'File not found.');
    let body = files.get(name);
    if (!body) files.set(name, (body = fs.readFileSync(known.file)));
    return reply.type(known.type).headers({ 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' }).send(body);
  });
}
