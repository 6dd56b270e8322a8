import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { resolveCaller, type Caller } from '../../modules/partners/service.js';
import type { Runtime } from '../../platform/dependencies.js';
import { addRouteHook } from '../route-hooks.js';

export type AuthMode = 'none' | 'appKey' | 'partner';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated partner (routes with auth 'partner'). */
    caller: Caller;
    /** The database's change stamp when the request was authenticated (SQLite), for the in-memory lookups it makes. */
    dataStamp: string | undefined;
  }
  interface FastifyContextConfig {
    /** 'partner' (default): app key and token; 'appKey': app key only; 'none': public. */
    auth?: AuthMode;
  }
}

function header(request: FastifyRequest, names: readonly string[]): string | undefined {
  for (const name of names) {
    const v = request.headers[name];
    const value = Array.isArray(v) ? v[0] : v;
    if (value?.trim()) return value.trim();
  }
  return undefined;
}

/** The headers that may carry the app key: Service-App-Key, then the configured alternatives. */
function appKeyHeaders(runtime: Runtime): string[] {
  return ['service-app-key', ...runtime.config.appKeyHeaders];
}

/** Reads the app key from Service-App-Key or a configured alternative header. */
export function appKeyOf(request: FastifyRequest, runtime: Runtime): string | undefined {
  return header(request, appKeyHeaders(runtime));
}

/** Every API route needs the app key and a token of the same partner unless its config says otherwise. */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: { runtime: Runtime }) => {
    const { runtime } = opts;
    // Made once: the hook below runs on every request.
    const keyHeaders = appKeyHeaders(runtime);
    const tokenHeaders = ['service-app-token', ...runtime.config.appTokenHeaders];
    app.decorateRequest('caller', null as unknown as Caller);
    app.decorateRequest('dataStamp', undefined);
    // Only routes that need a partner get the hook (see addRouteHook); a caller found in memory costs no promise.
    addRouteHook(app, 'onRequest', (options, notFound) => {
      if (notFound || (options.config?.auth ?? 'partner') !== 'partner') return undefined;
      return (request, _reply, done) => {
        request.dataStamp = runtime.database.changeStamp?.();
        const caller = resolveCaller(runtime, header(request, keyHeaders), header(request, tokenHeaders), request.dataStamp);
        if (caller instanceof Promise) {
          caller.then((found) => {
            request.caller = found;
            done();
          }, done);
        } else {
          request.caller = caller;
          done();
        }
      };
    });
  },
  { name: 'ledgerlink-auth', dependencies: ['ledgerlink-content'] },
);
