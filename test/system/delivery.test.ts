import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { SYSTEM_DIALECTS } from '../helpers/db.js';
import { enqueueDelivery } from '../../src/outbox/enqueue.js';
import { generateSigningSecret } from '../../src/outbox/sign.js';
import { runCli, startServe } from '../helpers/cli.js';
import { startListener, waitFor, type Listener } from '../helpers/listener.js';
import { enqueueTestEvents, processHarness, type ProcessStore } from '../helpers/process-store.js';

describe.each(SYSTEM_DIALECTS)('deliveries from real processes on %s', (dialect) => {
  const { openStore, worker, processes, afterTest, stopAll } = processHarness(dialect);
  let listener: Listener | undefined;
  afterTest(async () => {
    await listener?.close();
    listener = undefined;
  });

  async function statuses(store: ProcessStore): Promise<Record<string, number>> {
    const rows = await store.runtime.database.kysely.selectFrom('deliveries').select('status').execute();
    const out: Record<string, number> = {};
    for (const r of rows) out[r.status] = (out[r.status] ?? 0) + 1;
    return out;
  }

  /** The listener at first: a few 500s, then it accepts requests and never answers. */
  const failing = (_r: unknown, index: number) => (index < 4 ? { status: 500 } : { hang: true as const });

  // While the listener hangs, each event's retries move further out (10, 30, 60 s: src/outbox/fail.ts); on a loaded
  // machine the process starts of that phase can take long enough that the last events come due 106 s after the
  // first attempt, so the waits leave room for the whole schedule rather than for a quiet machine.
  it('loses nothing when a worker is killed mid-delivery: after a restart every event arrives, with the same id', { timeout: 240_000 }, async () => {
    const store = await openStore();
    listener = await startListener(failing);
    const secret = generateSigningSecret();
    const events = await enqueueTestEvents(store, listener.url, 40, secret);
    const concurrency = 4;
    const workers = dialect === 'postgres' ? 2 : 1;

    let first = await worker(store, 'worker-a');
    if (workers === 2) await worker(store, 'worker-b');
    // Every worker has its slots full of deliveries the listener holds open: kill one of them in the middle.
    await waitFor('deliveries hanging at the listener', () => listener!.openNow() === concurrency * workers);
    first.kill('SIGKILL');
    expect(await first.exited).toBeNull();

    if (workers === 2) {
      // A replacement joins while the other worker still runs, and both hold deliveries at once.
      first = await worker(store, 'worker-a2');
      await waitFor('both workers busy', () => listener!.openNow() === concurrency * workers);
    }
    // The listener recovers (answering a little slowly, so simultaneous deliveries of one event would show).
    listener.setBehaviour(() => ({ status: 200, delayMs: 30 }));
    if (workers === 1) first = await worker(store, 'worker-a2');

    await waitFor('every event acknowledged', () => events.every((e) => listener!.acknowledged().has(e)), 180_000);
    for (const code of await stopAll()) expect(code).toBe(0);

    expect(listener.acknowledged()).toEqual(new Set(events));
    expect(listener.overlaps).toEqual(new Set());
    expect(await statuses(store)).toEqual({ delivered: events.length });
    // Redeliveries kept their event id and carry valid signatures.
    for (const r of listener.requests.filter((x) => x.status === 200)) {
      expect(() => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    }
    const attempts = await store.runtime.database.kysely.selectFrom('delivery_attempts').select(['worker_id', 'status_code']).execute();
    expect(attempts.some((a) => a.status_code === 500)).toBe(true);
    const workerIds = new Set(attempts.map((a) => a.worker_id));
    expect(workerIds.has('worker-a2')).toBe(true);
    if (workers === 2) expect(workerIds.has('worker-b')).toBe(true);
  });

  it('serve delivers in-process; the CLI lists deliveries with their attempts and redelivers one with the same event id', { timeout: 60_000 }, async () => {
    const store = await openStore();
    listener = await startListener((_r, index) => (index === 0 ? { status: 503, body: 'warming up' } : { status: 200 }));
    const server = await startServe(['--data', store.data], store.env);
    processes.push(server);
    const [eventId] = await enqueueTestEvents(store, listener.url, 1, generateSigningSecret());
    const row = () => store.runtime.database.kysely.selectFrom('deliveries').selectAll().executeTakeFirstOrThrow();
    await waitFor('the failed first attempt recorded', async () => (await row()).last_status_code === 503);
    expect(await row()).toMatchObject({ status: 'pending', event_id: eventId });

    // Rather than wait for the retry, send it again now.
    const { id } = await row();
    const again = await runCli(['deliveries', 'redeliver', String(id), '--data', store.data], store.env);
    expect(again.stderr).toMatch(/^store: (sqlite|postgres) \S+\n$/);
    expect(again.stdout).toBe(`Delivery ${id} (event ${eventId}) will be sent again now.\n`);
    await waitFor('the redelivery recorded', async () => (await row()).status === 'delivered');
    expect(listener.requests.map((r) => [r.eventId, r.status])).toEqual([
      [eventId, 503],
      [eventId, 200],
    ]);

    const listed = await runCli(['deliveries', 'list', '--json', '--data', store.data], store.env);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({
      deliveries: [
        expect.objectContaining({
          id,
          eventId,
          status: 'delivered',
          attempts: [
            expect.objectContaining({ statusCode: 503, error: 'HTTP 503: warming up; the listener must answer 200' }),
            expect.objectContaining({ statusCode: 200, error: null }),
          ],
        }),
      ],
    });
    const text = await runCli(['deliveries', 'list', '--partner', store.partnerId, '--data', store.data], store.env);
    expect(text.stdout).toContain(`#${id}  txpush  delivered`);
    expect(text.stdout).toMatch(/ 503 .* HTTP 503: warming up/);

    const unknown = await runCli(['deliveries', 'redeliver', '999999', '--data', store.data], store.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^store: .*\nerror: Delivery 999999 not found\n$/);
    const bad = await runCli(['deliveries', 'list', '--status', 'lost', '--data', store.data], store.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: unknown status "lost"\nhint: use one of: pending, retrying, failed, delivered, cancelled\n');

    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('mail list shows the local mailbox', { timeout: 60_000 }, async () => {
    const store = await openStore();
    await enqueueDelivery(store.runtime.database.kysely, store.runtime, {
      kind: 'email',
      partnerId: store.partnerId,
      to: 'consumer@example.com',
      subject: 'Connect your bank',
      text: 'Open https://connect.example/abc',
    });
    const w = await worker(store, 'mailer');
    await waitFor('the message stored', async () => (await store.runtime.database.kysely.selectFrom('mailbox').select('id').execute()).length === 1);
    w.kill('SIGTERM');
    expect(await w.exited).toBe(0);

    const json = await runCli(['mail', 'list', '--json', '--partner', store.partnerId, '--data', store.data], store.env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).messages).toEqual([
      expect.objectContaining({ to: 'consumer@example.com', subject: 'Connect your bank', text: 'Open https://connect.example/abc' }),
    ]);
    const text = await runCli(['mail', 'list', '--data', store.data], store.env);
    expect(text.stdout).toContain('Subject: Connect your bank');
    expect(text.stdout).toContain('  Open https://connect.example/abc');
  });
});
