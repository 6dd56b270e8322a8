import { ServiceError } from '../../../contract/errors/service-error.js';
import type { App } from '../../app-types.js';
import { appPage, readAsset, simplePage } from '../../connect-app/routes/web.js';

/**
 * What the dashboard page may do: its own scripts, styles and API only; images also from https (experience logos);
 * never framed (clickjacking of the key rotation and redeliver buttons).
 */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** GET /dashboard (the developer dashboard, a Vite-built app) and GET /dashboard/assets/* (its files). */
export default function dashboardPages(app: App): void {
  app.get('/dashboard', {
    schema: { hide: true, summary: 'The developer dashboard' },
    handler: async (_request, reply) => {
      reply.type('text/html; charset=utf-8').headers({
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'content-security-policy': CSP,
        'cross-origin-opener-policy': 'same-origin',
      });
      const page = appPage('dashboard');
      if (!page) return reply.code(503).send(simplePage('The dashboard is not available', 'The dashboard has not been built on this server (npm run build).'));
      return reply.send(page);
    },
  });

  app.get('/dashboard/assets/*', {
    schema: { hide: true, summary: 'Dashboard files' },
    handler: async (request, reply) => {
      const asset = readAsset((request.params as { '*': string })['*'], 'dashboard');
      if (!asset) throw new ServiceError('ResourceNotFound', 'File not found.');
      return reply.type(asset.type).header('cache-control', 'public, max-age=31536000, immutable').header('x-content-type-options', 'nosniff').send(asset.body);
    },
  });
}
