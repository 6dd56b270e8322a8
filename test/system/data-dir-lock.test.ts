import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { authenticateAt, cliArgs, ROOT, runCli, startServe, tempDataDir, type ServerProcess } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

const SQLITE = { DATABASE_URL: undefined };

/**
 * Starts `ledgerlink ...args` and waits until it either exits (refused: its code and output) or says it is ready (it
 * was not refused: it is killed, and `started` is true), so a start that should have been refused cannot hang.
 */
function startOrRefusal(args: string[], env: Record<string, string | undefined>, ready = /listening on http|worker \S+ started/) {
  return new Promise<{ started: boolean; code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let started = false;
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!started && ready.test(stdout)) {
        started = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ started, code, stdout, stderr }));
  });
}

const running: ServerProcess[] = [];
async function serve(args: string[], env: Record<string, string | undefined> = SQLITE): Promise<ServerProcess> {
  const p = await startServe(args, env);
  running.push(p);
  return p;
}
afterEach(async () => {
  for (const p of running.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.kill('SIGKILL');
      await p.exited;
    }
  }
});

const health = async (url: string) => (await fetch(`${url}/health`)).status;

describe('one process runs the worker on a SQLite data directory', () => {
  it('a second serve or worker is refused, naming the first, which keeps answering; direct commands and an API-only serve work beside it; after kill -9 a new start succeeds', {
    timeout: 240_000,
  }, async () => {
    const data = tempDataDir();
    const first = await serve(['--data', data]);
    const holder = `in use by another Ledgerlink process (pid ${first.child.pid}, ledgerlink serve, listening on ${first.url})`;

    const second = await startOrRefusal(['serve', '--port', '0', '--data', data, '--log-level', 'warn'], SQLITE);
    expect(second.started, second.stdout).toBe(false);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`error: the data directory ${data} is ${holder}; on SQLite one process per data directory runs the worker`);
    expect(second.stderr).toContain('hint: stop that process first, or give this one another --data.');
    const worker = await startOrRefusal(['worker', '--data', data, '--log-level', 'warn'], SQLITE);
    expect({ started: worker.started, code: worker.code }).toEqual({ started: false, code: 1 });
    expect(worker.stderr).toContain(holder);
    expect(await health(first.url)).toBe(200);

    // The CLI's direct mode opens the same files for a moment, as it always has.
    const made = await runCli(['partner', 'create', '--json', '--data', data], SQLITE);
    expect(made.code, made.stderr).toBe(0);
    const creds = JSON.parse(made.stdout) as { partnerId: string; partnerSecret: string; appKey: string };
    expect((await authenticateAt(first.url, creds)).status).toBe(200);
    // HTTP processes without a worker may share the file (docs/operations.md).
    const apiOnly = await serve(['--data', data, '--no-worker']);
    expect((await authenticateAt(apiOnly.url, creds)).status).toBe(200);

    first.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    const again = await serve(['--data', data]);
    expect(await health(again.url)).toBe(200);
    expect((await authenticateAt(again.url, creds)).status).toBe(200);
    expect(JSON.parse(fs.readFileSync(path.join(data, 'worker.lock.json'), 'utf8'))).toEqual({
      pid: again.child.pid,
      command: 'ledgerlink serve',
      url: again.url,
    });
    again.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    // A clean stop leaves no holder behind; the lock file itself stays (removing it could let two processes lock two files).
    expect(fs.existsSync(path.join(data, 'worker.lock.json'))).toBe(false);
    expect(fs.existsSync(path.join(data, 'worker.lock'))).toBe(true);
  });

  it('serve --workers 2 starts its HTTP processes under its own lock, and refuses a second serve', { timeout: 180_000 }, async () => {
    const data = tempDataDir();
    const group = await serve(['--data', data, '--workers', '2']);
    expect(group.stdout()).toMatch(/listening on \S+ with 2 processes/);
    const second = await startOrRefusal(['serve', '--port', '0', '--data', data, '--log-level', 'warn'], SQLITE);
    expect({ started: second.started, code: second.code }).toEqual({ started: false, code: 1 });
    expect(second.stderr).toContain(`pid ${group.child.pid}, ledgerlink serve`);
    expect(await health(group.url)).toBe(200);
    group.kill('SIGTERM');
    expect(await group.exited).toBe(0);
    const after = await serve(['--data', data]);
    expect(await health(after.url)).toBe(200);
  });
});

describe('PostgreSQL: no lock on the data directory', () => {
  let db: TestDatabase | undefined;
  afterAll(async () => {
    await db?.drop();
  });

  it('two serve processes with their workers on one database and one data directory both start', { timeout: 180_000 }, async () => {
    db = await createTestDatabase('postgres');
    const data = tempDataDir();
    const env = { DATABASE_URL: db.url };
    const [a, b] = [await serve(['--data', data], env), await serve(['--data', data], env)];
    expect([await health(a.url), await health(b.url)]).toEqual([200, 200]);
    expect(fs.existsSync(path.join(data, 'worker.lock'))).toBe(false);
  });
});
