import { sql, type Kysely } from 'kysely';
import pg from 'pg';

/**
 * PostgreSQL LISTEN, on connections of their own: the pool's connections go back to the pool between queries, and a
 * connection that LISTENs must stay open to hear anything.
 */

/**
 * Calls `onNotify` with the payload of every NOTIFY on `channel`, on a connection of its own, until the returned
 * function is called; `onError` hears when that connection is lost.
 */
export type Listen = (channel: string, onNotify: (payload: string) => void, onError: (e: Error) => void) => Promise<() => Promise<void>>;

/**
 * A connection (not one of the pool's) that LISTENs on `channel` until the returned function is called; `onError`
 * hears when it is lost, after which it is closed.
 */
export async function listenOn(
  config: pg.ClientConfig,
  channel: string,
  onNotify: (payload: string) => void,
  onError: (e: Error) => void,
): Promise<() => Promise<void>> {
  const client = new pg.Client(config);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await client.end().catch(() => {});
  };
  client.on('notification', (message) => {
    if (message.channel === channel) onNotify(message.payload ?? '');
  });
  client.on('error', (e) => {
    if (closed) return;
    void close();
    onError(e);
  });
  // A server that closes the connection cleanly (shutdown) ends it without an error.
  client.on('end', () => {
    if (closed) return;
    closed = true;
    onError(new Error('the LISTEN connection ended'));
  });
  try {
    await client.connect();
    await client.query(`listen ${client.escapeIdentifier(channel)}`);
  } catch (e) {
    await close();
    throw e;
  }
  return close;
}

/** What a kept LISTEN tells its user. */
export interface ListenHandlers {
  /**
   * A notification on the channel. `schema` is the database's current schema: the payloads of this database's
   * NOTIFYs carry it, so that databases sharing a server (tests, schemas side by side) do not hear each other.
   */
  notified(payload: string, schema: string | undefined): void;
  /** Listening, the first time or again (`schema` as above): whatever was sent while it was not has been missed. */
  up(schema: string | undefined): void;
  /** Not listening: the connection was lost, or could not be made; it is tried again after the pause. */
  down(error: Error): void;
}

/** A LISTEN kept up by `keepListening`. */
export interface KeptListen {
  /** Resolves once the first attempt to listen has succeeded or failed (never rejects). */
  readonly ready: Promise<void>;
  /** Stops listening and trying again. */
  stop(): Promise<void>;
}

/**
 * Keeps a LISTEN on `channel` up: listens through `listen` (a connection of its own), and whenever that connection
 * is lost or cannot be made, tries again after `retryMs`, until stopped. The one place that reconnects: the change
 * stamp (database.ts) and the delivery wake-ups (outbox/wake.ts) each keep one.
 */
export function keepListening<T>(kysely: Kysely<T>, listen: Listen, channel: string, handlers: ListenHandlers, retryMs: number): KeptListen {
  let stopped = false;
  let schema: string | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lost = (e: Error) => {
    unlisten = undefined;
    handlers.down(e);
    if (stopped) return;
    retry = setTimeout(() => void attempt(), retryMs);
    retry.unref();
  };
  const attempt = async (): Promise<void> => {
    try {
      schema ??= (await sql<{ schema: string }>`select current_schema() as schema`.execute(kysely)).rows[0]?.schema;
      const stop = await listen(channel, (payload) => handlers.notified(payload, schema), lost);
      if (stopped) return void (await stop());
      unlisten = stop;
      handlers.up(schema);
    } catch (e) {
      lost(e as Error);
    }
  };

  return {
    ready: attempt(),
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      await unlisten?.();
    },
  };
}
