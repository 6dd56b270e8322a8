import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ServiceError } from '../../../../contract/errors/service-error.js';
import { CliListenerParams, CliPolled, CliPollQuery } from '../../../../contract/schemas/cli.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { pollState, renewPolledListener } from '../../../../outbox/listeners.js';
import { takePolledDeliveries } from '../../../../outbox/polled.js';
import { epochSeconds } from '../../../../platform/clock.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { pause, waitSignal } from '../../waits.js';
import { found, listenerView } from './view.js';

/** How often a waiting poll looks for deliveries, and whether it is still the listener's poll (cheap indexed reads). */
const LOOK_EVERY_MS = 250;

/**
 * POST /cli/v1/listeners/{listenerId}/poll: renews the listener and takes the deliveries due for it, waiting up to
 * `wait` seconds for one. Each is held for the listener for 60 seconds, in which it reports the outcome.
 * A listener has one open poll, the newest: a poll that is waiting when another one of its listener starts ends with
 * 409 (14098), and one whose listener is removed meanwhile with 404. With at most MAX_LIVE_LISTENERS listeners, a
 * partner holds at most that many polls open.
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
      response: { 200: CliPolled, ...errorResponses(400, 401, 403, 404, 406, 409) },
    },
    handler: async (request) => {
      const db = runtime.database.kysely;
      const { listenerId } = request.params;
      const token = randomBytes(12).toString('base64url');
      const listener = found(await renewPolledListener(db, listenerId, request.caller.partnerId, epochSeconds(runtime.clock), token), listenerId);
      const signal = waitSignal(app, request);
      // Real time, not the service clock: how long an HTTP request is held open.
      const until = performance.now() + request.query.wait * 1000;
      for (;;) {
        const deliveries = await takePolledDeliveries(db, runtime.keys, listener, { now: epochSeconds(runtime.clock), limit: request.query.limit });
        const left = until - performance.now();
        if (deliveries.length > 0 || left <= 0 || !(await pause(Math.min(LOOK_EVERY_MS, left), signal))) {
          return { listener: listenerView(listener), deliveries };
        }
        const state = await pollState(db, listener, token, epochSeconds(runtime.clock));
        if (state === 'replaced')
          throw new ServiceError('ListenerPollReplaced', `A newer poll of listener ${listenerId} started; this one ended without taking anything`);
        if (state === 'gone') throw new ServiceError('ResourceNotFound', `Listener ${listenerId} not found: it was removed while this poll waited`);
      }
    },
  });
}
