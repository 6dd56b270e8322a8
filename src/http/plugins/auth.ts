import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resolveCaller, type Caller } from '../../modules/partners/service.js';
import type { Runtime } from '../../platform/dependencies.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated partner (routes of a scope that requires one). */
    caller: Caller;
    /** The database's change stamp when the request was authenticated (see StampedMemo), for the in-memory lookups it makes. */
    dataStamp: string | undefined;
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

/** Reads the token from Service-App-Token or a configured alternative header. */
export function appTokenOf(request: FastifyRequest, runtime: Runtime): string | undefined {
  return header(request, ['service-app-token', ...runtime.config.appTokenHeaders]);
}

/**
 * The routes of this scope need the app key and a token of the same partner: the caller is resolved before
 * anything else reads the request. A caller found in memory costs no promise.
 */
export function requirePartner(scope: FastifyInstance, runtime: Runtime): void {
  // Made once: the hook below runs on every request.
  const keyHeaders = appKeyHeaders(runtime);
  const tokenHeaders = ['service-app-token', ...runtime.config.appTokenHeaders];
  scope.addHook('onRequest', (request, _reply, done) => {
    request.dataStamp = runtime.database.changeStamp();
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
  });
}
