import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Aborted when the app starts closing: calls that wait (a listener's poll) answer at once, so shutdown does not wait on them. */
    cliClosing: AbortSignal;
  }
}

/** Gives the scope its `cliClosing` signal, aborted before the server stops accepting requests and drains. */
export function stopWaitingOnClose(scope: FastifyInstance): void {
  const closing = new AbortController();
  scope.decorate('cliClosing', closing.signal);
  scope.addHook('preClose', (done) => {
    closing.abort();
    done();
  });
}

/** A signal for how long a request may go on waiting: until its client goes away or the app closes. */
export function waitSignal(scope: FastifyInstance, request: FastifyRequest): AbortSignal {
  const gone = new AbortController();
  request.raw.once('close', () => gone.abort());
  return AbortSignal.any([scope.cliClosing, gone.signal]);
}

/** Waits `ms`, or less when the signal aborts; says whether to go on. */
export async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
