/**
 * The SimpleFIN protocol (docs/simplefin-server.md), for SimpleFIN clients (Actual Budget, Firefly III's importer, …)
 * rather than partners: no app key or token. The claim route takes the setup token's secret from its path; the access
 * routes take Basic credentials, checked here before anything else reads the request, and refused with 403 as the
 * protocol says. Bodies are never read (a claim is a POST that clients send with or without a body or content type).
 * TLS and the permitted regions as for the API; every request lands in the request log of the partner whose access
 * or token it names, its credentials and the claim token redacted.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../../contract/errors/service-error.js';
import { identifyAccess, setupTokenOwner } from '../../modules/simplefin/service.js';
import type { SimplefinAccessRow } from '../../modules/simplefin/table.js';
import type { Runtime } from '../../platform/dependencies.js';
import type { App } from '../app-types.js';
import { logRequests } from '../plugins/request-log.js';
import { checkRegion, requireTls } from '../plugins/transport.js';
import { nameScope } from '../scopes.js';
import claimSimplefinAccess from './routes/claim.js';
import getSimplefinAccounts from './routes/getAccounts.js';
import getSimplefinInfo from './routes/getInfo.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The access whose Basic credentials the request carries (the access routes). */
    simplefinAccess: SimplefinAccessRow | null;
    /** The partner the request's access or claim token belongs to, for the request log. */
    simplefinOwner: string | undefined;
  }
}

export async function simplefinScope(scope: FastifyInstance, opts: { runtime: Runtime }): Promise<void> {
  const { runtime } = opts;
  nameScope(scope, 'simplefin');
  // No partner calls here; the request log reads the caller, which stays null.
  scope.decorateRequest('caller', null as never);
  scope.decorateRequest('simplefinAccess', null);
  scope.decorateRequest('simplefinOwner', undefined);
  requireTls(scope, runtime);
  checkRegion(scope, runtime);
  logRequests(scope, runtime, (request) => request.simplefinOwner);
  // Nothing here reads a body: whatever a client sends with its POST (nothing, `{}`, a form) is drained and ignored.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));

  await scope.register(async (claim: FastifyInstance) => {
    claim.addHook('onRequest', async (request: FastifyRequest<{ Params: { token?: string } }>) => {
      const token = request.params.token;
      if (typeof token === 'string' && /^[A-Za-z0-9]{1,128}$/.test(token)) request.simplefinOwner = await setupTokenOwner(runtime, token);
    });
    claimSimplefinAccess(claim as App, runtime);
  });

  await scope.register(async (access: FastifyInstance) => {
    access.addHook('onRequest', async (request) => {
      const found = await identifyAccess(runtime, request.headers.authorization);
      request.simplefinOwner = found.access?.partner_id;
      if (!found.valid) throw new ServiceError('SimplefinAccessRefused');
      request.simplefinAccess = found.access!;
    });
    for (const route of [getSimplefinAccounts, getSimplefinInfo]) route(access as App, runtime);
  });
}
