import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { authenticateAt, cliArgs, runCli, startProcess, tempDataDir, type ServerProcess } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase, SYSTEM_DIALECTS } from '../helpers/db.js';

/** A port some other program listens on, until `close`. */
async function takenPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The credentials a banner shows, if it shows them. */
function credentialsIn(stdout: string): { partnerId: string; partnerSecret: string; appKey: string } | undefined {
  const partnerId = /partnerId\s+(\S+)/.exec(stdout)?.[1];
  const partnerSecret = /partnerSecret\s+(\S+)/.exec(stdout)?.[1];
  const appKey = /appKey\s+(\S+)/.exec(stdout)?.[1];
  return partnerId && partnerSecret && appKey ? { partnerId, partnerSecret, appKey } : undefined;
}

async function stop(server: ServerProcess): Promise<void> {
  server.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

describe.each(SYSTEM_DIALECTS)('the first partner of `serve --first-partner` on %s', (dialect) => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const db of databases) await db.drop();
  });
  async function store(): Promise<{ data: string; env: Record<string, string | undefined> }> {
    const data = tempDataDir();
    if (dialect === 'sqlite') return { data, env: { DATABASE_URL: undefined } };
    const db = await createTestDatabase('postgres');
    databases.push(db);
    return { data, env: { DATABASE_URL: db.url } };
  }

  it.each([1, 2])(
    'with %i HTTP process(es): a start whose port is taken exits 1 saying so and makes no partner; the next start shows credentials that authenticate',
    { timeout: 180_000 },
    async (workers) => {
      const { data, env } = await store();
      const serveArgs = (port: number) => [
        'serve',
        '--port',
        String(port),
        '--data',
        data,
        '--first-partner',
        '--log-level',
        'warn',
        ...(workers > 1 ? ['--workers', String(workers)] : []),
      ];
      const taken = await takenPort();
      let failed: Awaited<ReturnType<typeof runCli>>;
      try {
        failed = await runCli(serveArgs(taken.port), env);
      } finally {
        await taken.close();
      }
      expect(failed.code, failed.stderr).toBe(1);
      expect(failed.stderr).toContain('EADDRINUSE');
      expect(failed.stderr).toContain('hint: another process uses that port; pick one with --port');
      expect(credentialsIn(failed.stdout)).toBeUndefined();
      const listed = await runCli(['partner', 'list', '--json', '--data', data], env);
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([]);

      const server = await startProcess(cliArgs(serveArgs(0)), env);
      try {
        const creds = credentialsIn(server.stdout());
        expect(creds, server.stdout()).toBeDefined();
        expect((await authenticateAt(server.url, creds!)).status).toBe(200);
      } finally {
        await stop(server);
      }
    },
  );

  it('a start that finds a partner says so and how to get a new secret; the command it prints works', { timeout: 120_000 }, async () => {
    const { data, env } = await store();
    const made = await runCli(['partner', 'create', '--json', '--data', data], env);
    expect(made.code, made.stderr).toBe(0);
    const creds = JSON.parse(made.stdout) as { partnerId: string; partnerSecret: string; appKey: string };

    const server = await startProcess(cliArgs(['serve', '--port', '0', '--data', data, '--first-partner', '--no-worker', '--log-level', 'warn']), env);
    try {
      const out = server.stdout();
      expect(credentialsIn(out)).toBeUndefined();
      expect(out).toContain(`This data store has a partner already (${creds.partnerId}), so no first partner was created.`);
      if (dialect === 'postgres') expect(out).toContain('with the same DATABASE_URL set');
      const command = new RegExp(`^  ledgerlink (partner reset-secret ${creds.partnerId} --data (\\S+))$`, 'm').exec(out);
      expect(command, out).not.toBeNull();
      expect(command![2]).toBe(data);

      const reset = await runCli([...command![1]!.split(' '), '--json'], env);
      expect(reset.code, reset.stderr).toBe(0);
      const { partnerSecret } = JSON.parse(reset.stdout) as { partnerSecret: string };
      expect((await authenticateAt(server.url, creds, partnerSecret)).status).toBe(200);
      expect((await authenticateAt(server.url, creds)).status).toBe(401);
    } finally {
      await stop(server);
    }
  });
});
