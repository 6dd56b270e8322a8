/**
 * What the service answers about itself and serves in public: the health check (for load balancers and probes,
 * over plain HTTP and from anywhere, never logged), the API description and its docs page, institutions'
 * branding files, and the service's address, which sends a browser to the dashboard.
 */
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../platform/dependencies.js';
import type { App } from '../app-types.js';
import { negotiateContent } from '../plugins/content.js';
import { docsRoutes } from '../plugins/openapi.js';
import { requireTls, sendHsts } from '../plugins/transport.js';
import { nameScope } from '../scopes.js';
import getInstitutionAsset from './routes/getInstitutionAsset.js';
import health from './routes/health.js';
import root from './routes/root.js';

export async function systemScope(scope: FastifyInstance, opts: { runtime: Runtime }): Promise<void> {
  const { runtime } = opts;
  nameScope(scope, 'system');
  await scope.register(async (probes: FastifyInstance) => {
    negotiateContent(probes);
    sendHsts(probes);
    health(probes as App, runtime);
  });
  await scope.register(async (published: FastifyInstance) => {
    requireTls(published, runtime);
    root(published as App);
    getInstitutionAsset(published as App, runtime);
    await docsRoutes(published);
  });
}
