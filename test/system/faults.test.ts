import { execFile, execFileSync, execSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { HISTORY_DAYS } from '../../src/connectors/testbank/records.js';
import { openDatabase, sqliteFileIn } from '../../src/platform/db/database.js';
import { runCli, startServe, tempDataDir, type ServerProcess } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { waitFor } from '../helpers/listener.js';

const DAY = 86_400;
const AUTH = '/aggregation/v2/partners/authentication';

/** A partner with a token on a running server, and a small client for it. */
async function client(server: ServerProcess, data: string, env: Record<string, string | undefined>) {
  const creds = JSON.parse((await runCli(['partner', 'create', '--json', '--data', data], env)).stdout);
  const auth = await fetch(server.url + AUTH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-app-key': creds.appKey },
    body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret }),
  });
  const { token } = (await auth.json()) as { token: string };
  return clientFor(creds.appKey, token);
}

function clientFor(appKey: string, token: string) {
  const headers = { 'service-app-key': appKey, 'service-app-token': token, accept: 'application/json', 'content-type': 'application/json' };
  return {
    appKey,
    token,
    call: (base: string, method: string, p: string, body?: unknown) =>
      fetch(base + p, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }),
  };
}

type Client = ReturnType<typeof clientFor>;

async function linkedCustomer(base: string, c: Client, username: string): Promise<string> {
  const created = await c.call(base, 'POST', '/aggregation/v2/customers/testing', { username });
  const { id } = (await created.json()) as { id: string };
  const linked = await c.call(base, 'POST', `/aggregation/v1/customers/${id}/institutions/101732/accounts/addall`, {
    credentials: [
      { id: '101732001', name: 'Banking Userid', value: 'profile_04' },
      { id: '101732002', name: 'Banking Password', value: 'profile_04' },
    ],
  });
  expect(linked.status).toBe(200);
  expect((await c.call(base, 'POST', `/aggregation/v1/customers/${id}/accounts`, {})).status).toBe(200);
  return id;
}

/** How many transactions of the customer are dated from `from` to `to` (epoch seconds, inclusive), pending ones too. */
async function found(base: string, c: Client, customerId: string, { from, to }: { from: number; to: number }): Promise<number> {
  const res = await c.call(base, 'GET', `/aggregation/v3/customers/${customerId}/transactions?fromDate=${from}&toDate=${to}&includePending=true&limit=1`);
  return ((await res.json()) as { found: number }).found;
}

async function loadHistory(base: string, c: Client, customerId: string): Promise<void> {
  const res = await c.call(base, 'GET', `/aggregation/v1/customers/${customerId}/accounts`);
  const { accounts } = (await res.json()) as { accounts: Array<{ id: string }> };
  for (const a of accounts) {
    for (let attempt = 0; ; attempt++) {
      const r = await c.call(base, 'POST', `/aggregation/v1/customers/${customerId}/accounts/${a.id}/transactions/historic`, {});
      if (r.status === 204) break;
      // A lease left by the killed process: wait until it expires.
      expect([409], await r.text()).toContain(r.status);
      expect(attempt).toBeLessThan(30);
      await sleep(500);
    }
  }
}

describe('faults', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it.each(['sqlite', 'postgres'] as const)(
    'kill -9 during historic loads on %s: after a restart the loads complete, matching an undisturbed customer, without duplicates',
    async (dialect) => {
      const data = tempDataDir();
      let pgDb: TestDatabase | undefined;
      if (dialect === 'postgres') {
        pgDb = await createTestDatabase('postgres');
        cleanups.push(() => pgDb!.drop());
      }
      const env = { DATABASE_URL: pgDb?.url, LEDGERLINK_REFRESH_LEASE_SECONDS: '3' };
      let server = await startServe(['--data', data], env);
      const c = await client(server, data, env);
      const victim = await linkedCustomer(server.url, c, 'fault_victim');
      const control = await linkedCustomer(server.url, c, 'fault_control');
      const controlLoading = Math.floor(Date.now() / 1000);
      await loadHistory(server.url, c, control);

      // Start the victim's loads and kill the service while they run.
      const accounts = ((await (await c.call(server.url, 'GET', `/aggregation/v1/customers/${victim}/accounts`)).json()) as { accounts: Array<{ id: string }> })
        .accounts;
      const inFlight = accounts.map((a) =>
        c.call(server.url, 'POST', `/aggregation/v1/customers/${victim}/accounts/${a.id}/transactions/historic`, {}).catch(() => undefined),
      );
      // Killed once a load holds the victim's login: it answers only after storing and releasing it, and the others
      // wait for it. A state of the database, not a time, so the kill lands mid-load however fast the machine is.
      const watching = openDatabase(dialect === 'sqlite' ? { sqliteFile: sqliteFileIn(data) } : { databaseUrl: pgDb!.url });
      try {
        await waitFor(
          'a historic load under way',
          async () =>
            (
              await watching.kysely
                .selectFrom('institution_logins')
                .select('id')
                .where('customer_id', '=', Number(victim))
                .where('refresh_lease_owner', 'is not', null)
                .execute()
            ).length > 0,
          60_000,
        );
        server.kill('SIGKILL');
        await server.exited;
      } finally {
        await watching.close();
      }
      const outcomes = await Promise.all(inFlight);
      // The kill landed while loads were running: at least one of them never got an answer.
      expect(outcomes.some((o) => o === undefined)).toBe(true);

      server = await startServe(['--data', data], env);
      cleanups.push(async () => {
        server.kill();
        await server.exited;
      });
      await loadHistory(server.url, c, victim);
      // A historic load reaches back the test bank's history from the time it runs, so the two customers are compared
      // over the dates both loads covered: the victim's loads end later by however long the kill and the restart took.
      const covered = { from: Math.floor(Date.now() / 1000) - HISTORY_DAYS * DAY, to: controlLoading };
      expect(await found(server.url, c, victim, covered)).toBe(await found(server.url, c, control, covered));
      expect(await found(server.url, c, victim, covered)).toBeGreaterThan(20_000);

      const database = openDatabase(dialect === 'sqlite' ? { sqliteFile: sqliteFileIn(data) } : { databaseUrl: pgDb!.url });
      try {
        const dupes = await sql<{
          n: number;
        }>`select count(*) as n from (select account_id, ref from transactions group by account_id, ref having count(*) > 1) d`.execute(database.kysely);
        expect(Number(dupes.rows[0]!.n)).toBe(0);
      } finally {
        await database.close();
      }
    },
    240_000,
  );

  const hasClusterTools = fs.existsSync('/usr/bin/pg_createcluster') && process.getuid?.() === 0;

  it.skipIf(!hasClusterTools)(
    'a PostgreSQL restart under load: 201 or 503 only, recovery without a service restart, every acknowledged write kept',
    async () => {
      const version = fs.readdirSync('/usr/lib/postgresql').sort().at(-1)!;
      const cluster = `ll_fault_${process.pid}`;
      const port = String(20000 + (process.pid % 10000));
      execFileSync('pg_createcluster', [version, cluster, '-p', port, '--start', '--', '--auth=trust'], { stdio: 'ignore' });
      cleanups.push(() => {
        execFileSync('pg_dropcluster', [version, cluster, '--stop'], { stdio: 'ignore' });
      });
      const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
      const data = tempDataDir();
      const env = { DATABASE_URL: url };
      const server = await startServe(['--data', data], env);
      cleanups.push(async () => {
        server.kill();
        await server.exited;
      });
      const c = await client(server, data, env);

      const acknowledged: string[] = [];
      const statuses = new Map<number, number>();
      let stop = false;
      let n = 0;
      const writer = (async () => {
        while (!stop) {
          const username = `restart_${n++}`;
          const res = await c.call(server.url, 'POST', '/aggregation/v2/customers/testing', { username }).catch(() => undefined);
          if (!res) continue;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 201) acknowledged.push(((await res.json()) as { id: string }).id);
          else await res.text();
        }
      })();
      // Counts of writes rather than times: some acknowledged before the outage, and one after it, under the same load.
      await waitFor('writes acknowledged before the restart', () => acknowledged.length > 10, 60_000);
      // Asynchronously, so the load keeps running through the outage.
      await promisify(execFile)('pg_ctlcluster', [version, cluster, 'restart', '-m', 'fast']);
      const beforeRestart = acknowledged.length;
      await waitFor('a write acknowledged after the restart', () => acknowledged.length > beforeRestart, 60_000);
      stop = true;
      await writer;

      let healthy = false;
      for (let i = 0; i < 60 && !healthy; i++) {
        expect(server.child.exitCode, `the service exited during the outage:\n${server.stderr().slice(-4000)}`).toBeNull();
        healthy = (await fetch(server.url + '/health')).status === 200;
        if (!healthy) await sleep(500);
      }
      expect(healthy).toBe(true);
      expect(
        [...statuses.keys()].filter((s) => s !== 201 && s !== 503),
        JSON.stringify([...statuses]),
      ).toEqual([]);
      // The outage was felt, and answered as unavailability.
      expect(statuses.get(503), JSON.stringify([...statuses])).toBeGreaterThan(0);
      expect(acknowledged.length).toBeGreaterThan(10);
      for (const id of acknowledged) expect((await c.call(server.url, 'GET', `/aggregation/v1/customers/${id}`)).status).toBe(200);
    },
    180_000,
  );

  it.skipIf(process.getuid?.() !== 0)(
    'a full disk on SQLite: 201 or 503 only, writes resume when space returns, acknowledged data intact',
    async () => {
      const mount = tempDataDir();
      execSync(`mount -t tmpfs -o size=48m tmpfs ${mount}`);
      cleanups.push(() => {
        execSync(`umount -l ${mount}`);
      });
      const data = path.join(mount, 'data');
      const env = { DATABASE_URL: undefined };
      const server = await startServe(['--data', data], env);
      cleanups.push(async () => {
        server.kill();
        await server.exited;
      });
      const c = await client(server, data, env);
      // Leave a few hundred kilobytes free.
      const filler = path.join(mount, 'filler');
      const free = () => Number(execSync(`df -k --output=avail ${mount} | tail -1`).toString().trim()) * 1024;
      fs.writeFileSync(filler, Buffer.alloc(Math.max(free() - 400 * 1024, 0)));

      const acknowledged: string[] = [];
      const statuses = new Map<number, number>();
      const long = 'x'.repeat(200);
      for (let i = 0; i < 5000 && !statuses.has(503); i++) {
        const res = await c.call(server.url, 'POST', '/aggregation/v2/customers/testing', {
          username: `disk_${i}_${long}`.slice(0, 255),
          firstName: long,
          lastName: long,
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 201) acknowledged.push(((await res.json()) as { id: string }).id);
        else await res.text();
      }
      expect(statuses.get(503), JSON.stringify([...statuses])).toBeGreaterThan(0);
      expect([...statuses.keys()].filter((s) => s !== 201 && s !== 503)).toEqual([]);

      fs.rmSync(filler);
      const after = await c.call(server.url, 'POST', '/aggregation/v2/customers/testing', { username: 'disk_after_space' });
      expect(after.status).toBe(201);
      for (const id of acknowledged) expect((await c.call(server.url, 'GET', `/aggregation/v1/customers/${id}`)).status).toBe(200);
      const database = openDatabase({ sqliteFile: sqliteFileIn(data) });
      try {
        const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(database.kysely);
        expect(check.rows[0]!.integrity_check).toBe('ok');
      } finally {
        await database.close();
      }
    },
    180_000,
  );
});
