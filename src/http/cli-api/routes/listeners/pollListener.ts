import { performance } from 'node:perf_hooks';
import { CliListenerParams, CliPolled, CliPollQuery } from '../../../../contract/schemas/cli.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { renewPolledListener } from '../../../../outbox/listeners.js';
import { takePolledDeliveries } from '../../../../outbox/polled.js';
import { epochSeconds } from '../../../../platform/clock.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { pause, waitSignal } from '../../waits.js';
import { found, listenerView } from './view.js';

/** How often a waiting poll looks for deliveries (a cheap indexed read; enqueueing may happen in another process). */
const LOOK_EVERY_MS = 250;

/**
 * POST /cli/v1/listeners/{listenerId}/poll: renews the listener and takes the deliveries due for it, waiting up to
 * `wait` seconds for one. Each is held for the listener for 60 seconds, in which it reports the outcome.
 */
export default function pollListener(app: App, runtime: Runtime): void {
  app.post('/cli/v1/listeners/:listenerId/poll', {
    schema: {
      hide: true,
      operationId: 'CliPollListener',
      tags: ['CLI'],
      summary: 'Take the deliveries held for a polled listener (Ledgerlink extension, CLI)',
      params: CliListenerParams,
      querystring: CliPollQuery,
      response: { 200: CliPolled, ...errorResponses(400, 401, 403, 404, 406) },
    },
    handler: async (request) => {
      const db = runtime.database.kysely;
      const { listenerId } = request.params;
      const listener = found(await renewPolledListener(db, listenerId, request.caller.partnerId, epochSeconds(runtime.clock)), listenerId);
      const signal = waitSignal(app, request);
      // Real time, not the service clock: how long an HTTP request is held open.
      const until = performance.now() + request.query.wait * 1000;
      for (;;) {
        const deliveries = await takePolledDeliveries(db, runtime.keys, listener, { now: epochSeconds(runtime.clock), limit: request.query.limit });
        const left = until - performance.now();
        if (deliveries.length > 0 || left <= 0 || !(await pause(Math.min(LOOK_EVERY_MS, left), signal))) {
          return { listener: listenerView(listener), deliveries };
        }
      }
    },
  });
}
