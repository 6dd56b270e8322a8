import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { SYSTEM_DIALECTS } from '../helpers/db.js';
import type { PartnerCredentials } from '../../src/modules/partners/service.js';
import { loginForm } from '../helpers/aggregation.js';
import { startServe, type ServerProcess } from '../helpers/cli.js';
import { processHarness, WORKER_ENV } from '../helpers/process-store.js';
import { waitFor } from '../helpers/listener.js';
import { startPushListener, type SubscriptionJson } from '../helpers/txpush.js';

const CONCURRENCY = Number(WORKER_ENV.LEDGERLINK_WORKER_CONCURRENCY);
/** Test transactions created while the listener fails; each sends a transaction and an account notification. */
const TRANSACTIONS = 12;

type PushListener = Awaited<ReturnType<typeof startPushListener>>;

describe.each(SYSTEM_DIALECTS)('TxPUSH from real processes on %s', (dialect) => {
  const { openStore, worker: startWorkerProcess, processes, afterTest, stopAll } = processHarness(dialect);
  let listener: PushListener | undefined;
  afterTest(async () => {
    await listener?.close();
    listener = undefined;
  });

  /** A small API client for a running server. */
  async function client(baseUrl: string, partner: PartnerCredentials) {
    const call = async (method: string, path: string, body?: unknown, expected = 200) => {
      const res = await fetch(baseUrl + path, {
        method,
        headers: {
          'service-app-key': partner.appKey,
          ...(token ? { 'service-app-token': token } : {}),
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    };
    let token: string | undefined;
    token = (await call('POST', '/aggregation/v2/partners/authentication', { partnerId: partner.partnerId, partnerSecret: partner.partnerSecret })).token;
    return call;
  }

  it('loses no notification when the process delivering it is killed mid-delivery; on PostgreSQL two workers never deliver one event at once', {
    timeout: 240_000,
  }, async () => {
    // The listener verifies correctly; its first notifications fail with 500, then it accepts them and never answers.
    let posts = 0;
    listener = await startPushListener(() => (posts++ < 4 ? { status: 500 } : { hang: true }));
    const store = await openStore({ LEDGERLINK_PUSH_EXTRA_PORTS: String(listener.port) });
    const workers = dialect === 'postgres' ? 2 : 1;
    // SQLite: the worker inside serve. PostgreSQL: serve answers the API only; two `ledgerlink worker` processes deliver.
    const serveArgs = ['--data', store.data, ...(workers === 2 ? ['--no-worker'] : [])];
    let server = await startServe(serveArgs, store.env);
    processes.push(server);
    const deliverers: ServerProcess[] = workers === 2 ? [await startWorkerProcess(store, 'worker-a'), await startWorkerProcess(store, 'worker-b')] : [server];

    let api = await client(server.url, store.partner);
    const { id: customerId } = await api('POST', '/aggregation/v2/customers/testing', { username: `txpush_${randomBytes(4).toString('hex')}` }, 201);
    const { accounts } = await api('POST', `/aggregation/v1/customers/${customerId}/institutions/102105/accounts/addall`, loginForm(102105, 'profile_03'));
    const accountId = (accounts as Array<{ id: string; type: string }>).find((a) => a.type === 'checking')!.id;
    await api('POST', `/aggregation/v1/customers/${customerId}/accounts`, {});
    const { subscriptions } = (await api(
      'POST',
      `/aggregation/v1/customers/${customerId}/accounts/${accountId}/txpush`,
      { callbackUrl: listener.url },
      201,
    )) as { subscriptions: SubscriptionJson[] };
    const keys = new Map(subscriptions.map((s) => [s.type, s.signingKey]));

    const created: number[] = [];
    const now = Math.floor(Date.now() / 1000);
    for (let i = 0; i < TRANSACTIONS; i++) {
      created.push(
        (
          await api(
            'POST',
            `/aggregation/v1/customers/${customerId}/accounts/${accountId}/transactions`,
            { amount: -(i + 1), description: `crash test ${i}`, transactionDate: now - i },
            201,
          )
        ).id,
      );
    }

    // Every delivering process has its slots full of notifications the listener holds open: kill one in the middle.
    await waitFor('notifications hanging at the listener', () => listener!.openNow() === CONCURRENCY * workers, 60_000);
    const victim = deliverers[0]!;
    victim.kill('SIGKILL');
    expect(await victim.exited).toBeNull();

    if (workers === 2) {
      // A replacement joins while the other worker still runs, and both hold notifications at once.
      await startWorkerProcess(store, 'worker-a2');
      await waitFor('both workers busy', () => listener!.openNow() === CONCURRENCY * workers, 60_000);
    } else {
      // The whole service died; it comes back on the same data.
      server = await startServe(serveArgs, store.env);
      processes.push(server);
      api = await client(server.url, store.partner);
    }
    // The listener recovers (answering a little slowly, so simultaneous deliveries of one event would show).
    listener.setBehaviour((req) => (req.method === 'POST' ? { status: 200, delayMs: 30 } : { status: 404 }));

    const db = store.runtime.database.kysely;
    const rows = await db.selectFrom('deliveries').select(['event_id', 'status']).where('kind', '=', 'txpush').execute();
    expect(rows).toHaveLength(2 * TRANSACTIONS);
    const events = rows.map((r) => r.event_id);
    await waitFor('every notification acknowledged', () => events.every((e) => listener!.acknowledged().has(e)), 120_000);
    for (const code of await stopAll()) expect(code).toBe(0);

    // Every event arrived, and no event was ever in flight twice at once (two workers, or a worker and its replacement).
    expect(listener.acknowledged()).toEqual(new Set(events));
    expect(listener.overlaps).toEqual(new Set());
    const acknowledged = listener.notifications().filter((r) => r.status === 200);
    if (workers === 2) expect(acknowledged).toHaveLength(events.length);
    expect((await db.selectFrom('deliveries').select('status').where('kind', '=', 'txpush').execute()).every((r) => r.status === 'delivered')).toBe(true);
    // Every test transaction reached the listener, in a notification signed with the transaction subscription's key.
    const delivered = new Set<number>();
    for (const r of acknowledged) {
      const { event } = new Webhook(keys.get(JSON.parse(r.body).event.class)!).verify(r.body, r.headers as Record<string, string>) as {
        event: { class: string; records: Array<{ id: number }> };
      };
      if (event.class === 'transaction') for (const record of event.records) delivered.add(record.id);
    }
    expect([...delivered].sort()).toEqual([...created].sort());
    // The failures before the crash were recorded, and the replacement did part of the work.
    const attempts = await db.selectFrom('delivery_attempts').select(['worker_id', 'status_code']).execute();
    expect(attempts.some((a) => a.status_code === 500)).toBe(true);
    if (workers === 2) {
      const ids = new Set(attempts.map((a) => a.worker_id));
      expect(ids.has('worker-a2')).toBe(true);
      expect(ids.has('worker-b')).toBe(true);
    }
  });
});
