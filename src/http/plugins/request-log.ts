import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { RequestLogWriter } from '../../modules/requestlog/service.js';
import { redactQuerySecrets } from '../../platform/redact-query.js';
import type { Runtime } from '../../platform/dependencies.js';
import { addRouteHook } from '../route-hooks.js';

declare module 'fastify' {
  interface FastifyReply {
    /** The catalogue code of the error this reply carries, for the request log. */
    errorCode: string | undefined;
  }
  interface FastifyInstance {
    requestLog: RequestLogWriter;
  }
}

/** The path as the request log keeps it: secrets in its query string redacted (it is shown on the dashboard), at most 500 characters. */
function storedPath(url: string): string {
  const path = redactQuerySecrets(url);
  return path.length > 500 ? `${path.slice(0, 500)}…` : path;
}

/** Records every API request (method, path, status, latency, error code, partner) for the dashboard and `logs tail`. */
export const requestLogPlugin = fp(
  async (app: FastifyInstance, opts: { runtime: Runtime }) => {
    const writer = new RequestLogWriter(opts.runtime.database, opts.runtime.clock);
    app.decorate('requestLog', writer);
    app.decorateReply('errorCode', undefined);
    // Each route knows once whether it is logged and under which route pattern (see addRouteHook).
    addRouteHook(app, 'onResponse', (options) => {
      if (options.config?.negotiate === false || options.url === '/health') return undefined;
      const route = options.url ?? null;
      return (request, reply, done) => {
        writer.record({
          partner_id: request.caller?.partnerId ?? null,
          method: request.method,
          path: storedPath(request.url),
          route,
          status: reply.statusCode,
          latency_ms: Math.round(reply.elapsedTime * 1000) / 1000,
          error_code: reply.errorCode ?? null,
          request_id: String(request.id),
          ip: request.ip,
          created_at_ms: opts.runtime.clock.now(),
        });
        done();
      };
    });
    app.addHook('onClose', async () => writer.close());
  },
  { name: 'ledgerlink-request-log' },
);
