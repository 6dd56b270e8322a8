import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliArgs, startProcess, tempDataDir, type ServerProcess } from '../helpers/cli.js';

/** `ledgerlink serve` from source with a fresh (or given) data directory, on a free port. */
function serve(data: string, extra: string[] = [], env: Record<string, string> = {}): Promise<ServerProcess> {
  return startProcess(cliArgs(['serve', '--port', '0', '--data', data, '--no-worker', ...extra]), env);
}

/** The NAME=value pairs of the banner's `export` line. */
function exportsOf(stdout: string): Record<string, string> {
  const line = /^export (.+)$/m.exec(stdout)?.[1] ?? '';
  return Object.fromEntries(line.split(' ').map((pair) => pair.split('=', 2) as [string, string]));
}

async function stop(server: ServerProcess): Promise<void> {
  server.kill('SIGTERM');
  await server.exited;
}

describe('the banner of ledgerlink serve', () => {
  it('prints the dashboard, docs and Connect URLs and, for a new first partner, export lines whose credentials authenticate', async () => {
    const data = tempDataDir();
    const server = await serve(data, ['--first-partner', '--log-level', 'info']);
    try {
      const out = server.stdout();
      expect(out).toContain(`Dashboard  ${server.url}/dashboard`);
      expect(out).toContain(`API docs   ${server.url}/docs`);
      expect(out).toContain(`Connect    ${server.url}/connect`);
      for (const page of ['/dashboard', '/docs']) expect((await fetch(server.url + page, { headers: { accept: 'text/html' } })).status, page).toBe(200);

      const vars = exportsOf(out);
      expect(Object.keys(vars)).toEqual(['LEDGERLINK_URL', 'LEDGERLINK_APP_KEY', 'LEDGERLINK_PARTNER_ID', 'LEDGERLINK_PARTNER_SECRET']);
      expect(vars.LEDGERLINK_URL).toBe(server.url);
      // The same credentials the banner lists above the export line.
      expect(out).toContain(`partnerId     ${vars.LEDGERLINK_PARTNER_ID}`);
      const res = await fetch(`${vars.LEDGERLINK_URL}/aggregation/v2/partners/authentication`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'service-app-key': vars.LEDGERLINK_APP_KEY! },
        body: JSON.stringify({ partnerId: vars.LEDGERLINK_PARTNER_ID, partnerSecret: vars.LEDGERLINK_PARTNER_SECRET }),
      });
      expect(res.status).toBe(200);
      expect((await res.json()).token).toMatch(/\S{20,}/);
      // stdout is a pipe here, not a terminal: the request's log lines are JSON.
      const logged = server
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
      expect(logged.some((l) => l.msg === 'request completed' && l.res?.statusCode === 200)).toBe(true);
    } finally {
      await stop(server);
    }

    // Started again on the same data, there is no new partner: the URLs, no credentials.
    const again = await serve(data, ['--first-partner', '--log-level', 'warn']);
    try {
      expect(again.stdout()).toContain(`API docs   ${again.url}/docs`);
      expect(again.stdout()).not.toMatch(/export |partnerSecret/);
    } finally {
      await stop(again);
    }
  });

  it('logs readable lines when asked with LEDGERLINK_LOG_FORMAT=pretty', async () => {
    const server = await serve(tempDataDir(), ['--log-level', 'info'], { LEDGERLINK_LOG_FORMAT: 'pretty', NO_COLOR: '1' });
    try {
      await fetch(`${server.url}/docs`);
      // Written by the server after it answered: a generous wait, only there so that a missing line fails rather than hangs.
      await expect.poll(() => server.stdout(), { timeout: 20_000 }).toMatch(/\] INFO.*: request completed GET \S+ 200 in [\d.]+ ms/);
      expect(server.stdout()).not.toMatch(/^\{"level"/m);
    } finally {
      await stop(server);
    }
  });

  it('logs readable lines on a terminal without being asked', async () => {
    // `script` gives the process a pseudo-terminal as stdout.
    const command = [process.execPath, ...cliArgs(['serve', '--port', '0', '--data', tempDataDir(), '--no-worker', '--log-level', 'info'])]
      .map((w) => `'${w}'`)
      .join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await expect.poll(() => /listening on (http:\/\/\S+)/.exec(out)?.[1], { timeout: 60_000 }).toBeTruthy();
      const url = /listening on (http:\/\/\S+)/.exec(out)![1]!;
      await fetch(`${url}/docs`);
      await expect.poll(() => out, { timeout: 20_000 }).toMatch(/\] INFO.*: request completed GET \/docs 200 in [\d.]+ ms/);
      expect(out).not.toMatch(/\{"level":30/);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  });
});
