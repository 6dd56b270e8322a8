import type { FastifyInstance } from 'fastify';

/**
 * The scopes the service's routes live in, one folder each under src/http: each is an encapsulated Fastify plugin
 * that adds its own hooks, so a route gets its checks by where it is registered, not by flags.
 * - api: the partner API (app key and token); api-key: partner authentication (app key only)
 * - connect-app: the hosted Connect app (its signed link); dashboard: the developer dashboard (session, CSRF)
 * - system: health, the API description and public files; cli: the `ledgerlink` command's client API (app key and token)
 * - simplefin: the SimpleFIN protocol for SimpleFIN clients (a claim URL's token, an access's Basic credentials)
 */
export type ScopeName = 'api' | 'api-key' | 'cli' | 'connect-app' | 'dashboard' | 'simplefin' | 'system';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope that registered the route. It describes the route (OpenAPI security, tests) and decides nothing. */
    scope?: ScopeName;
  }
}

/** Marks every route this scope (and its children, unless they name their own) registers with the scope's name. */
export function nameScope(scope: FastifyInstance, name: ScopeName): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), scope: name };
  });
}
