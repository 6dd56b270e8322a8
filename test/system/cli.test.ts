import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, onceOnly, TEST_DATABASE_URL, type TestDatabase, SYSTEM_DIALECTS } from '../helpers/db.js';
import { authenticateAt as authenticate, runCli, startServe, tempDataDir } from '../helpers/cli.js';
import { waitFor } from '../helpers/listener.js';

const AUTH = '/aggregation/v2/partners/authentication';

/** Whether a new connection to the address is refused: nothing listens there any more. */
function refusesConnections(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** The line operator commands print on stderr, saying which store they opened. */
const STORE_LINE = /^store: (sqlite \/\S+\/ledgerlink\.sqlite|postgres postgres:\/\/\S+)( \(new\))?\n/;

// What does not depend on the store (output, signals, the request log, usage mistakes) runs on SQLite only (onceOnly).
describe.each(SYSTEM_DIALECTS)('the ledgerlink command on %s', (dialect) => {
  const pgDbs: TestDatabase[] = [];
  afterAll(async () => {
    for (const db of pgDbs) await db.drop();
  });

  /** Environment for a fresh store of this dialect. */
  async function freshStore(): Promise<{ env: Record<string, string | undefined>; data: string }> {
    const data = tempDataDir();
    if (dialect === 'sqlite') return { env: { DATABASE_URL: undefined }, data };
    const db = await createTestDatabase('postgres');
    pgDbs.push(db);
    return { env: { DATABASE_URL: db.url }, data };
  }

  /** A store that does not exist yet: an empty data directory, or an empty PostgreSQL schema; and how to see what is in it. */
  async function emptyStore(): Promise<{ env: Record<string, string | undefined>; data: string; label: string; contents(): Promise<string[]> }> {
    const data = tempDataDir();
    if (dialect === 'sqlite')
      return { env: { DATABASE_URL: undefined }, data, label: `sqlite ${data}/ledgerlink.sqlite`, contents: async () => fs.readdirSync(data) };
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const sqlOn = async <T>(fn: (c: pg.Client) => Promise<T>) => {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      try {
        return await fn(c);
      } finally {
        await c.end();
      }
    };
    await sqlOn((c) => c.query(`create schema ${schema}`));
    pgDbs.push({ drop: () => sqlOn((c) => c.query(`drop schema if exists ${schema} cascade`)).then(() => undefined) } as TestDatabase);
    const url = new URL(TEST_DATABASE_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return {
      env: { DATABASE_URL: url.toString() },
      data,
      label: `postgres ${url.toString()}`,
      contents: () =>
        sqlOn(async (c) => (await c.query('select table_name from information_schema.tables where table_schema = $1', [schema])).rows.map((r) => r.table_name)),
    };
  }

  it('operator commands say on stderr which store they opened; only partner create and seed start a new one', async () => {
    const missing = await emptyStore();
    const ofx = ['institutions', 'add-ofx', '--name', 'N', '--url', 'http://127.0.0.1:9999/ofx', '--fid', '1', '--org', 'O'];
    for (const args of [
      ['partner', 'unlock', '1234567890123'],
      ['partner', 'rotate-key', '1234567890123'],
      ['partner', 'list'],
      ['partner', 'reset-secret', '1234567890123'],
      ofx,
    ]) {
      const refused = await runCli([...args, '--data', missing.data], missing.env);
      expect([refused.code, refused.stdout], args.join(' ')).toEqual([2, '']);
      expect(refused.stderr, args.join(' ')).toMatch(/^error: no (Ledgerlink )?data store in .*\nhint: give --data DIR of an existing store/);
    }
    expect(await missing.contents()).toEqual([]);

    const created = await runCli(['partner', 'create', '--json', '--data', missing.data], missing.env);
    expect(created.stderr).toBe(`store: ${missing.label} (new)\n`);
    expect(Object.keys(JSON.parse(created.stdout)).sort()).toEqual(['appKey', 'partnerId', 'partnerSecret']);
    const listed = await runCli(['partner', 'list', '--json', '--data', missing.data], missing.env);
    expect(listed.stderr).toBe(`store: ${missing.label}\n`);
    expect(JSON.parse(listed.stdout)).toHaveLength(1);

    const seeded = await emptyStore();
    const seed = await runCli(['seed', '--customers', '1', '--json', '--data', seeded.data], seeded.env);
    expect(seed.code, seed.stderr).toBe(0);
    expect(seed.stderr.split('\n')[0]).toBe(`store: ${seeded.label} (new)`);
    expect(JSON.parse(seed.stdout)).toMatchObject({ customers: 1, partnerSecret: expect.any(String) });
  });

  it.runIf(onceOnly)('partner create --json prints exactly one JSON object with working credentials', async () => {
    const { env, data } = await freshStore();
    const res = await runCli(['partner', 'create', '--name', 'Acme', '--json', '--data', data], env);
    expect(res.stderr).toMatch(new RegExp(`${STORE_LINE.source}$`));
    expect(res.code).toBe(0);
    const creds = JSON.parse(res.stdout);
    expect(Object.keys(creds).sort()).toEqual(['appKey', 'partnerId', 'partnerSecret']);
    expect(creds.partnerId).toMatch(/^\d{13}$/);
    const server = await startServe(['--data', data], env);
    try {
      expect((await authenticate(server.url, creds)).status).toBe(200);
    } finally {
      server.kill();
      await server.exited;
    }
  });

  it.runIf(onceOnly)('serve --first-partner on an empty store prints credentials that work, and only the first time', async () => {
    const { env, data } = await freshStore();
    const server = await startServe(['--data', data, '--first-partner'], env);
    const out = server.stdout();
    const creds = {
      partnerId: /partnerId\s+(\S+)/.exec(out)![1]!,
      partnerSecret: /partnerSecret\s+(\S+)/.exec(out)![1]!,
      appKey: /appKey\s+(\S+)/.exec(out)![1]!,
    };
    expect((await fetch(server.url + '/health')).status).toBe(200);
    const res = await authenticate(server.url, creds);
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    const me = await fetch(server.url + '/aggregation/v1/partners/me', { headers: { 'service-app-key': creds.appKey, 'service-app-token': token } });
    expect(await me.json()).toMatchObject({ partnerId: creds.partnerId, plan: 'testdrive' });
    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const again = await startServe(['--data', data, '--first-partner'], env);
    expect(again.stdout()).not.toContain('partnerSecret');
    again.kill();
    await again.exited;
  });

  it('rotate-key kills the old key on a running server at once; unlock lifts a lock-out', async () => {
    const { env, data } = await freshStore();
    const creds = JSON.parse((await runCli(['partner', 'create', '--json', '--data', data], env)).stdout);
    const server = await startServe(['--data', data], env);
    try {
      const { token } = (await (await authenticate(server.url, creds)).json()) as { token: string };
      const rotated = await runCli(['partner', 'rotate-key', creds.partnerId, '--json', '--data', data], env);
      expect(rotated.code).toBe(0);
      const { appKey } = JSON.parse(rotated.stdout);
      expect(appKey).not.toBe(creds.appKey);
      const old = await fetch(server.url + '/aggregation/v1/partners/me', { headers: { 'service-app-key': creds.appKey, 'service-app-token': token } });
      expect(old.status).toBe(401);
      const fresh = await fetch(server.url + '/aggregation/v1/partners/me', { headers: { 'service-app-key': appKey, 'service-app-token': token } });
      expect(fresh.status).toBe(200);

      const current = { ...creds, appKey };
      for (let i = 0; i < 5; i++) expect((await authenticate(server.url, current, 'Wrong-secret-1')).status).toBe(401);
      const locked = await authenticate(server.url, current);
      expect(((await locked.json()) as { code: string }).code).toBe('10027');
      const unlocked = await runCli(['partner', 'unlock', creds.partnerId, '--data', data], env);
      expect(unlocked.code).toBe(0);
      expect((await authenticate(server.url, current)).status).toBe(200);
    } finally {
      server.kill();
      await server.exited;
    }
  });

  it('partner reset-secret: a running server refuses the old secret (401) and its tokens at once, and takes the new one', async () => {
    const { env, data } = await freshStore();
    const creds = JSON.parse((await runCli(['partner', 'create', '--json', '--data', data], env)).stdout);
    const server = await startServe(['--data', data], env);
    try {
      const { token } = (await (await authenticate(server.url, creds)).json()) as { token: string };
      const reset = await runCli(['partner', 'reset-secret', '--partner', creds.partnerId, '--json', '--data', data], env);
      expect(reset.code, reset.stderr).toBe(0);
      const { partnerSecret } = JSON.parse(reset.stdout);
      expect((await authenticate(server.url, creds)).status).toBe(401);
      const me = await fetch(server.url + '/aggregation/v1/partners/me', { headers: { 'service-app-key': creds.appKey, 'service-app-token': token } });
      expect(me.status).toBe(401);
      expect((await authenticate(server.url, { ...creds, partnerSecret })).status).toBe(200);
    } finally {
      server.kill();
      await server.exited;
    }
  });

  // Security review (issue 17, item 15): tokens could not be revoked.
  it('partner revoke-tokens refuses every token of the partner on a running server at once; a new token works', async () => {
    const { env, data } = await freshStore();
    const creds = JSON.parse((await runCli(['partner', 'create', '--json', '--data', data], env)).stdout);
    const other = JSON.parse((await runCli(['partner', 'create', '--json', '--data', data], env)).stdout);
    const server = await startServe(['--data', data], env);
    try {
      const tokenOf = async (c: typeof creds) => ((await (await authenticate(server.url, c)).json()) as { token: string }).token;
      const me = (c: typeof creds, token: string) =>
        fetch(server.url + '/aggregation/v1/partners/me', { headers: { 'service-app-key': c.appKey, 'service-app-token': token } });
      const tokens = [await tokenOf(creds), await tokenOf(creds)];
      const othersToken = await tokenOf(other);
      // The server has seen (and keeps in memory) the caller of each token.
      for (const token of tokens) expect((await me(creds, token)).status).toBe(200);
      const revoked = await runCli(['partner', 'revoke-tokens', creds.partnerId, '--json', '--data', data], env);
      expect(revoked.stderr).toMatch(new RegExp(`${STORE_LINE.source}$`));
      expect(JSON.parse(revoked.stdout)).toEqual({ partnerId: creds.partnerId, revoked: 2 });
      for (const token of tokens) {
        const refused = await me(creds, token);
        expect(refused.status).toBe(401);
        expect(((await refused.json()) as { code: string }).code).toBe('10022');
      }
      expect((await me(other, othersToken)).status).toBe(200);
      expect((await me(creds, await tokenOf(creds))).status).toBe(200);
      const text = await runCli(['partner', 'revoke-tokens', creds.partnerId, '--data', data], env);
      expect(text.stdout).toMatch(new RegExp(`^Revoked 1 live token of partner ${creds.partnerId}`));
      const unknown = await runCli(['partner', 'revoke-tokens', '9999999999999', '--data', data], env);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr.replace(STORE_LINE, '')).toBe('error: Partner 9999999999999 not found\n');
    } finally {
      server.kill();
      await server.exited;
    }
  });

  it.runIf(onceOnly)('SIGTERM lets an in-flight request finish, then exits 0', async () => {
    const { env, data } = await freshStore();
    const creds = JSON.parse((await runCli(['partner', 'create', '--json', '--data', data], env)).stdout);
    const server = await startServe(['--data', data], env);
    const body = JSON.stringify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret });
    const { hostname, port } = new URL(server.url);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          hostname,
          port,
          path: AUTH,
          method: 'POST',
          // The server answers 100 Continue once it has the request's head: from then on the request is in flight.
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'service-app-key': creds.appKey,
            expect: '100-continue',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      // Send half the body, signal the server, then, once it has stopped listening (it is shutting down), finish the
      // request: each step waits for the one before, not for a time.
      req.once('continue', () => {
        req.write(body.slice(0, 10));
        server.kill('SIGTERM');
        waitFor('the server to stop accepting connections', () => refusesConnections(hostname, Number(port))).then(() => req.end(body.slice(10)), reject);
      });
    });
    const res = await response;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).token).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(await server.exited).toBe(0);
  });

  it.runIf(onceOnly)('logs tail shows the API requests a running server answered', async () => {
    const { env, data } = await freshStore();
    const creds = JSON.parse((await runCli(['partner', 'create', '--json', '--data', data], env)).stdout);
    const server = await startServe(['--data', data], env);
    try {
      const { token } = (await (await authenticate(server.url, creds)).json()) as { token: string };
      await fetch(server.url + '/aggregation/v1/customers/42', { headers: { 'service-app-key': creds.appKey, 'service-app-token': token } });
      let lines: string[] = [];
      for (let i = 0; i < 20 && lines.length < 1; i++) {
        const res = await runCli(['logs', 'tail', '--json', '--partner', creds.partnerId, '--method', 'get', '--data', data], env);
        lines = res.stdout.trim().split('\n').filter(Boolean);
        if (lines.length < 1) await new Promise((r) => setTimeout(r, 250));
      }
      const entries = lines.map((l) => JSON.parse(l));
      expect(entries.map((e) => [e.method, e.path, e.status, e.error_code])).toEqual([['GET', '/aggregation/v1/customers/42', 404, '14001']]);
      const all = await runCli(['logs', 'tail', '--data', data], env);
      expect(all.stdout).toMatch(/POST\s+\/aggregation\/v2\/partners\/authentication\s+200/);
    } finally {
      server.kill();
      await server.exited;
    }
  });

  it('seed adds 1,000 customers with linked accounts, showing a progress bar; a server then serves them', async () => {
    const { env, data } = await freshStore();
    // 20 transactions a customer: the progress and the store are what is tested here, not the test bank's volume.
    const res = await runCli(['seed', '--customers', '1000', '--profile', 'profile_01', '--transactions', '20', '--json', '--data', data], env);
    expect(res.code, res.stderr).toBe(0);
    const result = JSON.parse(res.stdout);
    expect(result).toMatchObject({
      customers: 1000,
      transactionsPerCustomer: 20,
      transactions: 20_000,
      accountsPerCustomer: expect.any(Number),
      partnerSecret: expect.any(String),
    });
    // The store it opened (and made), then, not a terminal: one progress line per tenth of the way, the last at 100%.
    const [store, ...lines] = res.stderr.trim().split('\n');
    expect(`${store}\n`).toMatch(STORE_LINE);
    expect(lines.every((l) => /^seeding \[[#-]{30}\] +\d+% [\d,]+\/1,000 · [\d,]+ transactions · /.test(l))).toBe(true);
    // Progress as the batches land: several lines, each further along than the one before.
    const done = lines.map((l) => Number(/ ([\d,]+)\/1,000 /.exec(l)![1]!.replace(/,/g, '')));
    expect(done.length).toBeGreaterThanOrEqual(4);
    expect(done.every((n, i) => i === 0 || n > done[i - 1]!)).toBe(true);
    expect(lines.at(-1)).toMatch(/100% 1,000\/1,000 · [\d,]+ transactions · .* took /);
    const server = await startServe(['--data', data], env);
    try {
      const { token } = (await (await authenticate(server.url, result)).json()) as { token: string };
      const accounts = await fetch(`${server.url}/aggregation/v1/customers/${result.lastCustomerId}/accounts`, {
        headers: { accept: 'application/json', 'service-app-key': result.appKey, 'service-app-token': token },
      });
      expect(accounts.status).toBe(200);
      expect(((await accounts.json()) as { accounts: unknown[] }).accounts).toHaveLength(result.accountsPerCustomer);
    } finally {
      server.kill();
      await server.exited;
    }
    const bad = await runCli(['seed', '--customers', 'many', '--data', data], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --customers must be a positive integer/);
  });

  it.runIf(onceOnly)('reports usage mistakes as one line plus a hint, exit code 2', async () => {
    const res = await runCli(['partner', 'frobnicate']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: unknown partner action "frobnicate"\nhint: usage: ledgerlink partner/);
    // A name every object inherits is not a command either (regression: it crashed with a TypeError).
    const inherited = await runCli(['constructor']);
    expect(inherited.code).toBe(2);
    expect(inherited.stderr).toMatch(/^error: unknown command "constructor"\nhint: /);
    const { env, data } = await freshStore();
    await runCli(['partner', 'create', '--data', data], env);
    const unknown = await runCli(['partner', 'unlock', '123', '--data', data], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.replace(STORE_LINE, '')).toBe('error: Partner 123 not found\n');
  });
});
