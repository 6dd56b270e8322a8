import { randomBytes } from 'node:crypto';
import { afterAll, afterEach } from 'vitest';
import { loadConfig } from '../../src/main/config.js';
import { enqueueDelivery } from '../../src/outbox/enqueue.js';
import type { DialectName } from '../../src/platform/db/database.js';
import { createPartner, type PartnerCredentials } from '../../src/modules/partners/service.js';
import { openRuntime, type Runtime } from '../../src/main/runtime.js';
import { startWorker, tempDataDir, type ServerProcess } from './cli.js';
import { createTestDatabase, type TestDatabase } from './db.js';

/** Short attempts and quick polls, so crashed claims come back within seconds (lease = 2 s + 5 s). */
export const WORKER_ENV = { LEDGERLINK_DELIVERY_TIMEOUT_MS: '2000', LEDGERLINK_WORKER_POLL_MS: '200', LEDGERLINK_WORKER_CONCURRENCY: '4' };

/** A database shared by the test and the child processes it starts, with a partner in it. */
export interface ProcessStore {
  runtime: Runtime;
  partner: PartnerCredentials;
  partnerId: string;
  /** Environment for child processes that use this store. */
  env: Record<string, string | undefined>;
  data: string;
}

export interface ProcessHarness {
  /** A fresh store on the dialect, dropped after all tests. */
  openStore(extraEnv?: Record<string, string>): Promise<ProcessStore>;
  /** Starts `ledgerlink worker` on the store; killed after the test if still running. */
  worker(store: ProcessStore, id: string): Promise<ServerProcess>;
  /** Processes the test started; any still running after it are killed (SIGKILL). */
  processes: ServerProcess[];
  /** Stops (SIGTERM) every process of the test still running; resolves with their exit codes (0 for a clean stop). */
  stopAll(): Promise<Array<number | null>>;
  /** Registers work to run after each test, once its processes are gone (e.g. closing a listener). */
  afterTest(fn: () => Promise<void> | void): void;
}

/** Registers the hooks of a suite of tests that run real processes on one store per test. Call it inside describe. */
export function processHarness(dialect: DialectName): ProcessHarness {
  const cleanups: Array<() => Promise<void>> = [];
  const processes: ServerProcess[] = [];
  const afterTest: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const p of processes.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) {
        p.kill('SIGKILL');
        await p.exited;
      }
    }
    for (const fn of afterTest.splice(0)) await fn();
  });
  afterAll(async () => {
    for (const c of cleanups) await c();
  });
  return {
    processes,
    afterTest: (fn) => afterTest.push(fn),
    async stopAll() {
      const running = processes.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
      for (const p of running) p.kill('SIGTERM');
      return Promise.all(running.map((p) => p.exited));
    },
    async openStore(extraEnv = {}) {
      const data = tempDataDir();
      let database: TestDatabase | undefined;
      if (dialect === 'postgres') database = await createTestDatabase('postgres');
      const env = {
        ...WORKER_ENV,
        ...extraEnv,
        LEDGERLINK_MASTER_KEY: randomBytes(32).toString('hex'),
        DATABASE_URL: database?.url,
        LEDGERLINK_DATA_DIR: data,
      };
      const runtime = await openRuntime(loadConfig(env), database ? { database: database.database } : {});
      cleanups.push(() => (database ? database.drop() : runtime.database.close()));
      const partner = await createPartner(runtime, { name: 'Acme' });
      return { runtime, partner, partnerId: partner.partnerId, env, data };
    },
    async worker(store, id) {
      const p = await startWorker(['--data', store.data], { ...store.env, LEDGERLINK_WORKER_ID: id });
      processes.push(p);
      return p;
    },
  };
}

/** Writes n signed TxPUSH-shaped events for `url` to the store's outbox in one transaction; returns their event ids. */
export async function enqueueTestEvents(store: ProcessStore, url: string, n: number, secret: string): Promise<string[]> {
  return store.runtime.database.kysely.transaction().execute(async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const body = JSON.stringify({ event: { class: 'transaction', type: 'created', records: [{ id: 1000 + i }] } });
      ids.push(
        (
          await enqueueDelivery(tx, store.runtime, {
            kind: 'txpush',
            partnerId: store.partnerId,
            url,
            body,
            contentType: 'application/json',
            signingSecret: secret,
          })
        ).eventId,
      );
    }
    return ids;
  });
}
