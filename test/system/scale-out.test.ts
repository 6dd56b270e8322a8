import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { enqueueDelivery } from '../../src/delivery/enqueue.js';
import { generateSigningSecret } from '../../src/delivery/sign.js';
import { createPartner, type PartnerCredentials } from '../../src/domain/partners/service.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import { startServe, startWorker, tempDataDir, type ServerProcess } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startListener, waitFor, type Listener } from '../helpers/listener.js';

const AUTH = '/aggregation/v2/partners/authentication';

/** The status of a GET over a new connection (fetch would reuse a pooled keep-alive connection). */
function freshConnectionStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

/** Child process ids of a process (Linux `ps`). */
function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)]).toString().split('\n').map((s) => Number(s.trim())).filter((n) => n > 0);
  } catch {
    return [];
  }
}

describe('scale-out on one PostgreSQL: several API processes and several delivery workers', () => {
  const processes: ServerProcess[] = [];
  let database: TestDatabase;
  let runtime: Runtime;
  let env: Record<string, string | undefined>;
  let data: string;
  let listener: Listener | undefined;

  afterEach(async () => {
    for (const p of processes.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) {
        p.kill('SIGKILL');
        await p.exited;
      }
    }
    await listener?.close();
    listener = undefined;
  });
  afterAll(async () => {
    await database?.drop();
  });

  async function open(): Promise<void> {
    database = await createTestDatabase('postgres');
    data = tempDataDir();
    env = {
      DATABASE_URL: database.url,
      LEDGERLINK_MASTER_KEY: randomBytes(32).toString('hex'),
      LEDGERLINK_DATA_DIR: data,
      LEDGERLINK_WORKER_POLL_MS: '100',
      LEDGERLINK_WORKER_CONCURRENCY: '8',
    };
    runtime = await openRuntime(loadConfig(env), { database: database.database });
  }

  const authenticate = (url: string, creds: PartnerCredentials, secret = creds.partnerSecret) =>
    fetch(url + AUTH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'service-app-key': creds.appKey },
      body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: secret }),
    });

  const me = (url: string, creds: PartnerCredentials, token: string) =>
    fetch(url + '/aggregation/v1/partners/me', { headers: { accept: 'application/json', 'service-app-key': creds.appKey, 'service-app-token': token } });

  it('two API and two worker processes: tokens hold across processes, the lock-out counts across them, no event is delivered twice at once', { timeout: 180_000 }, async () => {
    await open();
    const api = [await startServe(['--data', data, '--no-worker'], env), await startServe(['--data', data, '--no-worker'], env)];
    processes.push(...api);
    const [a, b] = api.map((p) => p.url) as [string, string];
    expect(a).not.toBe(b);

    // A token from one process works on the other, and a partner created through either is seen by both.
    const creds = await createPartner(runtime, { name: 'Acme' });
    const issued = await authenticate(a, creds);
    expect(issued.status).toBe(200);
    const { token } = (await issued.json()) as { token: string };
    expect((await me(b, creds, token)).status).toBe(200);
    expect((await me(a, creds, token)).status).toBe(200);

    // Five wrong secrets, alternating between the processes, lock the partner on both.
    const victim = await createPartner(runtime, { name: 'Victim' });
    for (let i = 0; i < 5; i++) expect((await authenticate(i % 2 === 0 ? a : b, victim, 'wrong-secret-1')).status).toBe(401);
    for (const url of [a, b]) {
      const locked = await authenticate(url, victim);
      expect(locked.status).toBe(401);
      expect(((await locked.json()) as { code: string }).code).toBe('10027');
    }

    // Two workers share the outbox: every event arrives, none is in flight twice at once, none is acknowledged twice.
    // Both workers run before the events are written, so both take part.
    processes.push(await startWorker(['--data', data], { ...env, LEDGERLINK_WORKER_ID: 'scale-a' }));
    processes.push(await startWorker(['--data', data], { ...env, LEDGERLINK_WORKER_ID: 'scale-b' }));
    listener = await startListener(() => ({ status: 200, delayMs: 40 }));
    const secret = generateSigningSecret();
    const events = await runtime.database.kysely.transaction().execute(async (tx) => {
      const ids: string[] = [];
      for (let i = 0; i < 300; i++) {
        const body = JSON.stringify({ event: { class: 'transaction', type: 'created', records: [{ id: 5000 + i }] } });
        ids.push((await enqueueDelivery(tx, runtime, { kind: 'txpush', partnerId: creds.partnerId, url: listener!.url, body, contentType: 'application/json', signingSecret: secret })).eventId);
      }
      return ids;
    });
    await waitFor('every event acknowledged', () => events.every((e) => listener!.acknowledged().has(e)), 120_000);

    expect(listener.overlaps).toEqual(new Set());
    const delivered = listener.requests.filter((r) => r.status === 200);
    expect(delivered).toHaveLength(events.length);
    expect(new Set(delivered.map((r) => r.eventId)).size).toBe(events.length);
    for (const r of delivered.slice(0, 20)) expect(() => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    const attempts = await runtime.database.kysely.selectFrom('delivery_attempts').select(['worker_id']).execute();
    expect(new Set(attempts.map((x) => x.worker_id))).toEqual(new Set(['scale-a', 'scale-b']));
    expect(attempts).toHaveLength(events.length);

    for (const p of processes) {
      p.kill('SIGTERM');
      expect(await p.exited).toBe(0);
    }
  });

  it('serve --workers 2 runs two HTTP processes on one port and drains them all on SIGTERM', { timeout: 120_000 }, async () => {
    await open();
    const server = await startServe(['--data', data, '--workers', '2'], env);
    processes.push(server);
    expect(server.stdout()).toMatch(/with 2 processes/);
    const workers = childPids(server.child.pid!);
    expect(workers).toHaveLength(2);

    const creds = await createPartner(runtime, { name: 'Cluster' });
    const issued = await authenticate(server.url, creds);
    const { token } = (await issued.json()) as { token: string };
    const answers = await Promise.all(Array.from({ length: 40 }, () => me(server.url, creds, token).then((r) => r.status)));
    expect(answers.every((s) => s === 200)).toBe(true);

    // A dead HTTP process is replaced; the service keeps answering.
    process.kill(workers[0]!, 'SIGKILL');
    await waitFor('a replacement HTTP process', () => {
      const now = childPids(server.child.pid!);
      return now.length === 2 && !now.includes(workers[0]!);
    });
    // Connections the killed process held are gone; a new connection reaches a live process.
    expect(await freshConnectionStatus(server.url + '/aggregation/v1/partners/me', { accept: 'application/json', 'service-app-key': creds.appKey, 'service-app-token': token })).toBe(200);

    const remaining = childPids(server.child.pid!);
    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    for (const pid of remaining) expect(() => process.kill(pid, 0)).toThrow();
  });
});
