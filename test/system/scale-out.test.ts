import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateSigningSecret } from '../../src/outbox/sign.js';
import { createPartner, type PartnerCredentials } from '../../src/modules/partners/service.js';
import { authenticateAt, startServe, type ServerProcess } from '../helpers/cli.js';
import { startListener, waitFor, type Listener } from '../helpers/listener.js';
import { enqueueTestEvents, processHarness } from '../helpers/process-store.js';

/** Child process ids of a process (Linux `ps`). */
function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)])
      .toString()
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

/** The status of a GET over a new connection (fetch would reuse a pooled keep-alive connection). */
function freshConnectionStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

const meHeaders = (creds: PartnerCredentials, token: string) => ({ accept: 'application/json', 'service-app-key': creds.appKey, 'service-app-token': token });
const me = (url: string, creds: PartnerCredentials, token: string) => fetch(url + '/aggregation/v1/partners/me', { headers: meHeaders(creds, token) });

describe('scale-out on one PostgreSQL: several API processes and several delivery workers', () => {
  const { openStore, worker, processes, afterTest, stopAll } = processHarness('postgres');
  let listener: Listener | undefined;
  afterTest(async () => {
    await listener?.close();
    listener = undefined;
  });

  async function serve(args: string[], env: Record<string, string | undefined>): Promise<ServerProcess> {
    const p = await startServe(args, env);
    processes.push(p);
    return p;
  }

  it('two API and two worker processes: tokens hold across processes, the lock-out counts across them, no event is delivered twice at once', {
    timeout: 180_000,
  }, async () => {
    // Deliveries wait at the listener until both workers are busy (below): a time limit far beyond that wait.
    const store = await openStore({ LEDGERLINK_WORKER_POLL_MS: '100', LEDGERLINK_WORKER_CONCURRENCY: '8', LEDGERLINK_DELIVERY_TIMEOUT_MS: '90000' });
    const [a, b] = [
      (await serve(['--data', store.data, '--no-worker'], store.env)).url,
      (await serve(['--data', store.data, '--no-worker'], store.env)).url,
    ] as [string, string];
    expect(a).not.toBe(b);

    // A token from one process works on the other.
    const creds = store.partner;
    const issued = await authenticateAt(a, creds);
    expect(issued.status).toBe(200);
    const { token } = (await issued.json()) as { token: string };
    expect((await me(b, creds, token)).status).toBe(200);
    expect((await me(a, creds, token)).status).toBe(200);

    // Five wrong secrets, alternating between the processes, lock the partner on both.
    const victim = await createPartner(store.runtime, { name: 'Victim' });
    for (let i = 0; i < 5; i++) expect((await authenticateAt(i % 2 === 0 ? a : b, victim, 'wrong-secret-1')).status).toBe(401);
    for (const url of [a, b]) {
      const locked = await authenticateAt(url, victim);
      expect(locked.status).toBe(401);
      expect(((await locked.json()) as { code: string }).code).toBe('10027');
    }

    // Two workers share the outbox: every event arrives, none is in flight twice at once, none is acknowledged twice.
    // The listener holds the first answers until both workers have every slot full (eight deliveries each), so both
    // take part whatever the speed of each process; then it answers a little slowly, so that simultaneous deliveries
    // of one event would show.
    await worker(store, 'scale-a');
    await worker(store, 'scale-b');
    let bothBusy!: () => void;
    const held = new Promise<void>((resolve) => (bothBusy = resolve));
    listener = await startListener((_r, index) => (index < 16 ? { status: 200, after: held } : { status: 200, delayMs: 40 }));
    const secret = generateSigningSecret();
    const events = await enqueueTestEvents(store, listener.url, 300, secret);
    await waitFor('both workers with every slot taken', () => listener!.openNow() === 16, 60_000);
    bothBusy();
    await waitFor('every event acknowledged', () => events.every((e) => listener!.acknowledged().has(e)), 120_000);

    expect(listener.overlaps).toEqual(new Set());
    const delivered = listener.requests.filter((r) => r.status === 200);
    expect(delivered).toHaveLength(events.length);
    expect(new Set(delivered.map((r) => r.eventId)).size).toBe(events.length);
    for (const r of delivered.slice(0, 20)) expect(() => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    // A worker writes its attempt after the listener has answered: wait for the last writes to land.
    const attemptsOf = () => store.runtime.database.kysely.selectFrom('delivery_attempts').select(['worker_id']).execute();
    await waitFor('every attempt recorded', async () => (await attemptsOf()).length >= events.length, 30_000);
    const attempts = await attemptsOf();
    expect(new Set(attempts.map((x) => x.worker_id))).toEqual(new Set(['scale-a', 'scale-b']));
    expect(attempts).toHaveLength(events.length);

    expect(await stopAll()).toEqual([0, 0, 0, 0]);
  });

  it('serve --workers 2 runs two HTTP processes on one port and drains them all on SIGTERM', { timeout: 120_000 }, async () => {
    const store = await openStore();
    const server = await serve(['--data', store.data, '--workers', '2'], store.env);
    expect(server.stdout()).toMatch(/with 2 processes/);
    const workers = childPids(server.child.pid!);
    expect(workers).toHaveLength(2);

    const creds = store.partner;
    const { token } = (await (await authenticateAt(server.url, creds)).json()) as { token: string };
    const answers = await Promise.all(Array.from({ length: 40 }, () => me(server.url, creds, token).then((r) => r.status)));
    expect(answers.every((s) => s === 200)).toBe(true);

    // A dead HTTP process is replaced; the service keeps answering.
    process.kill(workers[0]!, 'SIGKILL');
    await waitFor('a replacement HTTP process', () => {
      const now = childPids(server.child.pid!);
      return now.length === 2 && !now.includes(workers[0]!);
    });
    // Connections the killed process held are gone; a new connection reaches a live process.
    expect(await freshConnectionStatus(server.url + '/aggregation/v1/partners/me', meHeaders(creds, token))).toBe(200);

    const remaining = childPids(server.child.pid!);
    expect(await stopAll()).toEqual([0]);
    for (const pid of remaining) expect(() => process.kill(pid, 0)).toThrow();
  });
});
