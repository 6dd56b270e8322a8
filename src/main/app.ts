import Fastify, { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import type { App, LedgerlinkTypeProvider } from '../http/app-types.js';
import type { Runtime } from './runtime.js';
import { apiScope } from '../http/api/index.js';
import { cliApiScope } from '../http/cli-api/index.js';
import { connectAppScope } from '../http/connect-app/index.js';
import { connectComponentsScope } from '../http/connect-components/index.js';
import { dashboardScope } from '../http/dashboard/index.js';
import { simplefinScope } from '../http/simplefin/index.js';
import { systemScope } from '../http/system/index.js';
import { bodyParsers } from '../http/plugins/content.js';
import { errorsPlugin, frameworkErrorHandler } from '../http/plugins/errors.js';
import { clientErrorHandler } from '../http/client-error.js';
import { openapiPlugin } from '../http/plugins/openapi.js';
import { requestIdOf, requestLogPlugin } from '../http/plugins/request-log.js';
import { AuthenticationLimits } from '../http/plugins/transport.js';
import type { ScopeName } from '../http/scopes.js';
import fs from 'node:fs';
import { VERSION } from '../platform/version.js';
import { redactedLogger } from '../platform/logger.js';
import { createEngine, type Engine } from '../modules/aggregation/engine.js';
import { enqueuePushNotifications } from '../modules/txpush/notify.service.js';
import { heavyWorkLimits, type HeavyWorkLimits } from '../http/plugins/heavy-work.js';
import { createResponseCache, type ResponseCache } from '../http/response-cache.js';
import { sharedValidatorBuilder } from '../http/plugins/validators.js';

export interface RegisteredRoute {
  method: string;
  url: string;
  /** The scope that serves the route (http/scopes.ts). */
  config: { scope?: ScopeName };
  /** The route's schema (params, querystring, body, response) as registered. */
  schema: Record<string, unknown> | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: readonly RegisteredRoute[];
    /** The aggregation engine this app's routes (and the Connect pages) use. */
    engine: Engine;
    /** Serialised answers of the hot reads, checked against the version of their data (response-cache.ts). */
    responseCache: ResponseCache;
    /** Per-partner limits on uploads and refreshes (http/plugins/heavy-work.ts). */
    heavyWork: HeavyWorkLimits;
  }
}

/** One line per request, when it is answered, instead of Fastify's two (incoming, completed): half the log volume at info. */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

export interface AppOptions {
  /** Fastify logger options or instance; false for silence (tests). */
  logger?: FastifyServerOptions['loggerInstance'] | false;
}

function trustProxyOption(value: Runtime['config']['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value === 'number') return (_address, hop) => hop < value;
  return typeof value === 'boolean' ? value : [...value];
}

/** Builds the Fastify app. It never listens: tests inject requests, the server and workers share it. */
export async function buildApp(runtime: Runtime, options: AppOptions = {}): Promise<App> {
  const { config } = runtime;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: options.logger === false ? false : redactedLogger(config.logLevel) }),
    bodyLimit: config.bodyLimit,
    // Clients may send ids as numbers or strings, XML carries only strings: let the validator coerce.
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: false, strictSchema: false } },
    schemaController: { compilersFactory: { buildValidator: sharedValidatorBuilder } },
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    logController: new OneLinePerRequest(),
    // The client's own X-Request-Id when sane, else a random UUID; answered as x-request-id (plugins/request-log.ts).
    genReqId: requestIdOf,
    frameworkErrors: frameworkErrorHandler,
    // Requests Node refuses before Fastify parses them (bad request line, headers over 16 KiB, too slow): our format too.
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    trustProxy: trustProxyOption(config.trustProxy),
    // Native HTTPS when configured; TLS 1.0 and 1.1 are refused at the handshake.
    ...((config.tlsCert && config.tlsKey
      ? { https: { cert: fs.readFileSync(config.tlsCert), key: fs.readFileSync(config.tlsKey), minVersion: 'TLSv1.2' } }
      : {}) as object),
  }).withTypeProvider<LedgerlinkTypeProvider>();
  // Every registered route, for the OpenAPI completeness test and the isolation tests.
  const registeredRoutes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    // Read config lazily: hooks of inner scopes may still replace it after this one ran.
    for (const method of [route.method].flat()) {
      registeredRoutes.push({
        method,
        url: route.url,
        get config() {
          return (route.config ?? {}) as RegisteredRoute['config'];
        },
        get schema() {
          return route.schema as Record<string, unknown> | undefined;
        },
      });
    }
  });
  // One aggregation engine per app: routes and Connect share it; closing the app waits for its background refreshes.
  app.decorate(
    'engine',
    createEngine(runtime, {
      onEventsRecorded: enqueuePushNotifications,
      onBackgroundError: (what, e) => app.log.error({ err: e }, `${what} failed`),
    }),
  );
  app.addHook('onClose', async () => app.engine.idle());
  app.decorate('responseCache', createResponseCache(config.responseCacheBytes));
  app.decorate('heavyWork', heavyWorkLimits(config));
  await app.register(bodyParsers, { bodyLimit: config.bodyLimit });
  await app.register(errorsPlugin);
  await app.register(requestLogPlugin, { runtime });
  await app.register(openapiPlugin, { runtime, version: VERSION });
  // Each scope adds its own hooks to its own routes (src/http/scopes.ts).
  const authenticationLimits = new AuthenticationLimits(runtime);
  await app.register(systemScope, { runtime });
  await app.register(apiScope, { runtime, authenticationLimits });
  await app.register(connectComponentsScope, { runtime });
  await app.register(cliApiScope, { runtime });
  await app.register(connectAppScope, { runtime });
  await app.register(simplefinScope, { runtime });
  await app.register(dashboardScope, { runtime, authenticationLimits });
  return app;
}
