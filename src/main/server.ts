import type { Logger } from 'pino';
import { buildApp } from './app.js';
import { TurnBatch } from '../platform/turn-batch.js';
import type { App } from '../http/app-types.js';
import type { Runtime } from './runtime.js';
import { catalogOf } from '../modules/institutions/catalog.service.js';

export interface RunningServer {
  app: App;
  url: string;
  /** Stops accepting connections, lets in-flight requests finish, closes the database. */
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Stopped while the server drains, before the database closes (e.g. the in-process delivery worker). */
  alsoStop?: Array<() => Promise<void>>;
}

/** Builds the app on a runtime and listens on the configured host and port. */
export async function startServer(runtime: Runtime, logger: Logger, options: ServerOptions = {}): Promise<RunningServer> {
  const app = await buildApp(runtime, { logger });
  let closing: Promise<void> | undefined;
  // Responses finished in one turn of the event loop are written together at its end (see TurnBatch). While
  // draining, tell keep-alive clients to go, so shutdown does not wait on their idle sockets.
  const writes = new TurnBatch((error) => app.log.error({ err: error }, 'writing a response failed'));
  app.addHook('onSend', (_request, reply, payload, done) => {
    writes.add(() => {
      if (closing) reply.header('connection', 'close');
      done(null, payload);
    });
  });
  // Loading the institution catalogue into memory holds the event loop for a while: do it before the first request,
  // not during one (every request arriving meanwhile would wait).
  await catalogOf(runtime.database);
  const url = await app.listen({ host: runtime.config.host, port: runtime.config.port });
  return {
    app,
    url,
    close: () =>
      (closing ??= (async () => {
        await Promise.all([app.close(), ...(options.alsoStop ?? []).map((stop) => stop())]);
        await runtime.database.close();
      })()),
  };
}
