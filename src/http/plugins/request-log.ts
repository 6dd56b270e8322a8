import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { RequestLogWriter } from '../../modules/requestlog/service.js';
import { redactQuerySecrets } from '../../platform/redact-query.js';
import type { Runtime } from '../../platform/dependencies.js';

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

/** The request log's writer, shared by the app's scopes and closed with the app. */
export const requestLogPlugin = fp(
  async (app: FastifyInstance, opts: { runtime: Runtime }) => {
    const writer = new RequestLogWriter(opts.runtime.database, opts.runtime.clock);
    app.decorate('requestLog', writer);
    app.decorateReply('errorCode', undefined);
    app.addHook('onClose', async () => writer.close());
  },
  { name: 'ledgerlink-request-log' },
);

/** Records every request of this scope (method, path, status, latency, error code, partner) for the dashboard and `logs tail`. */
export function logRequests(scope: FastifyInstance, runtime: Runtime): void {
  const writer = scope.requestLog;
  scope.addHook('onResponse', (request, reply, done) => {
    writer.record({
      partner_id: request.caller?.partnerId ?? null,
      method: request.method,
      path: storedPath(request.url),
      route: request.is404 ? null : (request.routeOptions.url ?? null),
      status: reply.statusCode,
      latency_ms: Math.round(reply.elapsedTime * 1000) / 1000,
      error_code: reply.errorCode ?? null,
      request_id: String(request.id),
      ip: request.ip,
      created_at_ms: runtime.clock.now(),
    });
    done();
  });
}
