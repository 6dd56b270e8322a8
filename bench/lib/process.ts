import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { memoryEnv, withMemoryFlags } from '../../src/main/cli/memory-settings.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Running {
  child: ChildProcess;
  url: string;
}

/** Starts `node ...args` in the repository and resolves once it prints `listening on <url>`. */
export function start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (https?:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
}

export async function stop(r: Running): Promise<void> {
  r.child.removeAllListeners('exit');
  const exited = new Promise((res) => r.child.once('exit', res));
  r.child.kill('SIGTERM');
  await exited;
}

/** Resident set size now and at its peak, in MB, from /proc (Linux). */
export function rssMb(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** Peak RSS in MB of a process and of its child processes (the HTTP processes of `serve --workers N`), each. */
export function peakRssTreeMb(pid: number): number[] {
  return [pid, ...childPids(pid)].map((p) => rssMb(p)?.peak).filter((v): v is number => v !== undefined);
}

/** The node flags and environment the benchmarks start Ledgerlink's processes with (see startLedgerlink). */
function launchSettings(extraEnv: NodeJS.ProcessEnv): { flags: string[]; env: NodeJS.ProcessEnv } {
  if (!fs.existsSync(`${ROOT}/dist/bundle/ledgerlink.js`)) throw new Error('build first: npm run build');
  // LEDGERLINK_BENCH_NODE_FLAGS: extra node flags for the measured service, e.g. "--cpu-prof --cpu-prof-dir=prof".
  const flags = (process.env.LEDGERLINK_BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  // Started as docs/operations.md recommends (and npm start does), unless LEDGERLINK_BENCH_PLAIN=1 asks for node's defaults.
  const plain = process.env.LEDGERLINK_BENCH_PLAIN === '1';
  return {
    flags: plain ? flags : withMemoryFlags(flags),
    env: {
      ...(plain ? {} : memoryEnv(process.env)),
      LEDGERLINK_LOG_LEVEL: 'warn',
      LEDGERLINK_AUTH_RATE_LIMIT_PER_IP: '1000000',
      LEDGERLINK_AUTH_RATE_LIMIT_PER_APP_KEY: '1000000',
      DATABASE_URL: '',
      ...extraEnv,
    },
  };
}

/** Ledgerlink from dist/ with benchmark settings (no auth rate limits, quiet logs) on a data directory. */
export function startLedgerlink(dataDir: string, extraEnv: NodeJS.ProcessEnv = {}, extraArgs: string[] = []): Promise<Running> {
  const { flags, env } = launchSettings(extraEnv);
  return start([...flags, 'dist/bundle/ledgerlink.js', 'serve', '--port', '0', '--data', dataDir, ...extraArgs], env);
}

/** `ledgerlink worker` from dist/ with the settings of startLedgerlink; resolves once it says it started. */
export function startLedgerlinkWorker(dataDir: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<ChildProcess> {
  const { flags, env } = launchSettings(extraEnv);
  const args = [...flags, 'dist/bundle/ledgerlink.js', 'worker', '--data', dataDir];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (/Ledgerlink worker \S+ started/.test(out)) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
}

/** The ids of a process's child processes (the HTTP processes of `serve --workers N`); none when it is gone (Linux). */
export function childPids(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU time a process has used so far, user and system, all its threads, in ms (Linux: /proc/PID/stat, in clock ticks of 10 ms); 0 once it is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Creates a partner on a data directory (or the PostgreSQL database of `databaseUrl`) with the built command, as an
 * operator does, from the checkout at `root`; its credentials.
 */
export function createPartner(
  dataDir: string,
  options: { databaseUrl?: string; root?: string } = {},
): { partnerId: string; partnerSecret: string; appKey: string } {
  return JSON.parse(
    execFileSync(process.execPath, ['dist/bundle/ledgerlink.js', 'partner', 'create', '--json', '--data', dataDir], {
      cwd: options.root ?? ROOT,
      env: { ...process.env, DATABASE_URL: options.databaseUrl ?? '' },
    }).toString(),
  );
}
