import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliArgs, ROOT, startProcess, tempDataDir } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase, SYSTEM_DIALECTS } from '../helpers/db.js';

// A supervisor (systemd, a container runtime, a test) may stop a process the moment it reads the line that says the
// process is ready. The preload sends SIGTERM from inside that very write: every long-running command must already
// handle it then, and stop cleanly with exit code 0 instead of dying of the signal.
const PRELOAD = path.join(ROOT, 'test', 'helpers', 'term-on-ready.mjs');

describe.each(SYSTEM_DIALECTS)('SIGTERM the moment a process says it is ready, on %s', (dialect) => {
  const dbs: TestDatabase[] = [];
  afterAll(async () => {
    for (const db of dbs) await db.drop();
  });
  async function store(): Promise<Record<string, string | undefined>> {
    const data = tempDataDir();
    if (dialect === 'sqlite') return { DATABASE_URL: undefined, LEDGERLINK_DATA_DIR: data };
    const db = await createTestDatabase('postgres');
    dbs.push(db);
    return { DATABASE_URL: db.url, LEDGERLINK_DATA_DIR: data };
  }

  async function stopsCleanly(args: string[], ready: RegExp): Promise<void> {
    const p = await startProcess(['--import', PRELOAD, ...cliArgs(args)], await store(), 60_000, ready);
    const code = await p.exited;
    expect({ code, signal: p.child.signalCode, stderr: p.stderr() }).toEqual({ code: 0, signal: null, stderr: '' });
  }

  it('ledgerlink worker', { timeout: 60_000 }, () => stopsCleanly(['worker', '--log-level', 'warn'], /worker (\S+) started/));
  it('ledgerlink serve', { timeout: 60_000 }, () => stopsCleanly(['serve', '--port', '0', '--log-level', 'warn'], /listening on (http:\/\/\S+)/));
  it.runIf(dialect === 'postgres')('ledgerlink serve --workers 2', { timeout: 60_000 }, () =>
    stopsCleanly(['serve', '--port', '0', '--log-level', 'warn', '--workers', '2'], /listening on (http:\/\/\S+)/),
  );
  it.runIf(dialect === 'sqlite')('ledgerlink listen', { timeout: 60_000 }, () =>
    stopsCleanly(['listen', '--local', '--port', '0'], /listening on (http:\/\/\S+)/),
  );
});
