import { describe, expect, it } from 'vitest';
import { STORE_NEUTRAL } from '../helpers/db.js';
import { enqueueDelivery } from '../../src/outbox/enqueue.js';
import { RETRY_DELAYS_SECONDS } from '../../src/outbox/fail.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import type { DeliveryOutcome } from '../../src/outbox/transports/transport.js';
import { epochSeconds } from '../../src/platform/clock.js';
import { runCli } from '../helpers/cli.js';
import { processHarness, type ProcessStore } from '../helpers/process-store.js';

describe.each(STORE_NEUTRAL)('ledgerlink deliveries list --status on %s', (dialect) => {
  const { openStore } = processHarness(dialect);

  /** Three deliveries: one given up, one failed once and retrying, one delivered; answered here, no request leaves. */
  async function seed(store: ProcessStore): Promise<Record<'failed' | 'retrying' | 'delivered', number>> {
    const ids: Record<string, number> = {};
    for (const name of ['failed', 'retrying', 'delivered']) {
      ids[name] = (
        await enqueueDelivery(store.runtime.database.kysely, store.runtime, {
          kind: 'txpush',
          partnerId: store.partnerId,
          url: `https://${name}.example.com/hook`,
          body: '{"event":{"class":"transaction","type":"created","records":[{"id":1}]}}',
          contentType: 'application/json',
          eventType: 'transaction.created',
        })
      ).id;
    }
    const outcomes: Record<string, DeliveryOutcome> = {
      failed: { ok: false, statusCode: 410, error: 'HTTP 410: gone', permanent: true, response: 'gone' },
      retrying: { ok: false, statusCode: 503, error: 'HTTP 503: busy', response: 'busy' },
      delivered: { ok: true, statusCode: 200, error: null, response: 'ok' },
    };
    // No jitter: the retry comes exactly the first retry delay after the failed attempt.
    await drainDeliveries(store.runtime, { random: () => 0, transports: { txpush: async (d) => outcomes[new URL(d.target).hostname.split('.')[0]!]! } });
    return ids as Record<'failed' | 'retrying' | 'delivered', number>;
  }

  it('lists only the failed deliveries with --status failed, and the retrying ones with --status retrying', { timeout: 60_000 }, async () => {
    const store = await openStore();
    const seeded = epochSeconds(store.runtime.clock);
    const ids = await seed(store);
    const attempted = epochSeconds(store.runtime.clock);
    const list = async (status: string) => {
      const res = await runCli(['deliveries', 'list', '--status', status, '--json', '--data', store.data], store.env);
      expect(res.code, res.stderr).toBe(0);
      return JSON.parse(res.stdout).deliveries as { id: number; state: string; nextAttemptAt: number | null; eventType: string }[];
    };
    expect((await list('failed')).map((d) => [d.id, d.state])).toEqual([[ids.failed, 'failed']]);
    const retrying = await list('retrying');
    expect(retrying.map((d) => [d.id, d.state, d.eventType])).toEqual([[ids.retrying, 'retrying', 'transaction.created']]);
    // Its next attempt is ahead of the failed one by the first retry delay, never the time of an attempt already made
    // (compared with when the attempt was made, not with the time now, which depends on how long the commands took).
    expect(retrying[0]!.nextAttemptAt).toBeGreaterThanOrEqual(seeded + RETRY_DELAYS_SECONDS[0]!);
    expect(retrying[0]!.nextAttemptAt).toBeLessThanOrEqual(attempted + RETRY_DELAYS_SECONDS[0]!);
    expect((await list('delivered')).map((d) => d.id)).toEqual([ids.delivered]);
    expect(await list('cancelled')).toEqual([]);

    const text = await runCli(['deliveries', 'list', '--status', 'failed', '--data', store.data], store.env);
    expect(text.stdout).toContain(`#${ids.failed}  txpush  failed`);
    expect(text.stdout).not.toContain(`#${ids.retrying} `);

    const bad = await runCli(['deliveries', 'list', '--status', 'lost', '--data', store.data], store.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('use one of: pending, retrying, failed, delivered, cancelled');
  });
});
