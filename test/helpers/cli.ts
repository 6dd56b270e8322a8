import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The CLI as built, as `npm start` and users run it (the bundle bin/ledgerlink.js runs): starting from the TypeScript
// sources through a loader took about twice as long per process, and the system tests start hundreds. Their global
// set-up (test/helpers/build-setup.ts) builds first when the sources changed.
const MAIN = path.join(ROOT, 'dist', 'bundle', 'ledgerlink.js');

/** A throwaway data directory. */
export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-cli-'));
}

/** The node arguments that run the built CLI with `args`. */
export function cliArgs(args: string[]): string[] {
  return [MAIN, ...args];
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `ledgerlink ...args` to completion: in `cwd` (the repository by default), with `input` on its stdin (none by default). */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, options: { cwd?: string; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (options.input !== undefined) child.stdin!.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * Starts a process (by default `ledgerlink serve --port 0`) and waits until its stdout matches `ready`
 * (by default the line reporting its URL; `url` is the first group, or the whole match without one).
 */
export function startProcess(
  argv: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 60_000,
  ready = /listening on (https?:\/\/\S+)/,
  options: { group?: boolean } = {},
): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    // group: the process leads a process group and signals go to the whole group (npm's children included).
    const child = spawn(process.execPath, argv, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.group === true,
    });
    const signal = (s: NodeJS.Signals) => {
      if (options.group && child.pid !== undefined) {
        try {
          process.kill(-child.pid, s);
        } catch {
          // The group is gone already.
        }
      } else {
        child.kill(s);
      }
    };
    let out = '';
    let err = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const timer = setTimeout(() => {
      signal('SIGKILL');
      reject(new Error(`process did not start in time\nstdout: ${out}\nstderr: ${err}`));
    }, timeoutMs);
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] ?? m[0], stdout: () => out, stderr: () => err, exited, kill: (s = 'SIGTERM') => signal(s) });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`process exited (${code}) before listening\nstdout: ${out}\nstderr: ${err}`));
    });
  });
}

/** Starts `ledgerlink serve` from source on a free port. */
export function startServe(args: string[], env: Record<string, string | undefined> = {}): Promise<ServerProcess> {
  return startProcess(cliArgs(['serve', '--port', '0', '--log-level', 'warn', ...args]), env);
}

/** Starts `ledgerlink worker` from source and waits until it has started (`url` is then its worker id). */
export function startWorker(args: string[], env: Record<string, string | undefined> = {}): Promise<ServerProcess> {
  return startProcess(cliArgs(['worker', '--log-level', 'warn', ...args]), env, 60_000, /worker (\S+) started/);
}

/** The environment of the CLI in client mode as a partner of the service at `url`: its credentials, no store. */
export function clientModeEnv(url: string, creds: { partnerId: string; partnerSecret: string; appKey: string }): Record<string, string | undefined> {
  return {
    DATABASE_URL: undefined,
    LEDGERLINK_DATA_DIR: undefined,
    LEDGERLINK_URL: url,
    LEDGERLINK_APP_KEY: creds.appKey,
    LEDGERLINK_PARTNER_ID: creds.partnerId,
    LEDGERLINK_PARTNER_SECRET: creds.partnerSecret,
  };
}

/** POST partner authentication to a running server (JSON); `secret` defaults to the partner's own. */
export function authenticateAt(
  url: string,
  creds: { partnerId: string; partnerSecret: string; appKey: string },
  secret = creds.partnerSecret,
): Promise<Response> {
  return fetch(url + '/aggregation/v2/partners/authentication', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'service-app-key': creds.appKey },
    body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: secret }),
  });
}
