/**
 * Ledgerlink served as a user gets it from `npm start`: the node flags and environment of package.json's start
 * script (memory settings), the default log level (info: one line per request on stdout), the default
 * rate limits. Its stdout is read and dropped like a terminal or a log collector would take it, counting the bytes
 * and the warn/error/fatal lines. Also: the CLI (seed), and resident memory of the process tree sampled over time.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { SeedResult } from '../../src/modules/sandbox/seed.service.js';
import { childPids, cpuMs, ROOT } from './process.js';

export interface NpmStart {
  env: Record<string, string>;
  nodeFlags: string[];
  script: string;
  args: string[];
  /** The command as package.json has it, for the report. */
  text: string;
}

/** The node flags, environment and arguments of `npm start`, read from package.json's start script. */
export function npmStartSettings(): NpmStart {
  const pkg = JSON.parse(fs.readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: Record<string, string> };
  const text = pkg.scripts.start?.split('&&').at(-1)?.trim() ?? '';
  const tokens = text.split(/\s+/).filter(Boolean);
  const env: Record<string, string> = {};
  let i = 0;
  for (; i < tokens.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(tokens[i]!); i++) {
    const [name, ...value] = tokens[i]!.split('=');
    env[name!] = value.join('=');
  }
  if (tokens[i] !== 'node') throw new Error(`cannot read the start script of package.json (expected "[ENV=...] node [flags] script ..."): ${text}`);
  i++;
  const nodeFlags: string[] = [];
  for (; i < tokens.length && tokens[i]!.startsWith('-'); i++) nodeFlags.push(tokens[i]!);
  const script = tokens[i];
  if (!script) throw new Error(`no script in the start script of package.json: ${text}`);
  return { env, nodeFlags, script, args: tokens.slice(i + 1), text };
}

/** The environment without Ledgerlink's own settings, so the service gets its defaults whatever the shell has. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('LEDGERLINK_') || k === 'DATABASE_URL' || k === 'PORT' || k === 'SMTP_URL') continue;
    env[k] = v;
  }
  return env;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of running) c.kill('SIGTERM');
});

export interface LogCounts {
  bytes: number;
  /** Lines at warn (40), error (50), fatal (60). */
  warn: number;
  error: number;
  /** The first few warn-or-worse lines, shortened. */
  firstProblems: string[];
}

export interface Served {
  child: ChildProcess;
  pid: number;
  url: string;
  logs: LogCounts;
  stop(): Promise<void>;
}

const LEVEL = /"level":(\d\d)/g;

/**
 * Starts `serve` as npm start does (its flags, environment and arguments), on port 0 and `dataDir`, plus
 * `extraArgs`; `databaseUrl` for PostgreSQL; `logLevel` only to investigate (what the default level costs).
 * Resolves once it prints `listening on <url>`.
 */
export function startServed(
  dataDir: string,
  options: {
    databaseUrl?: string | undefined;
    extraArgs?: string[];
    logLevel?: string | undefined;
    /** Another checkout (built) to serve from, for before/after comparisons; this one when absent. */
    root?: string | undefined;
    /** Extra environment for the service (a setting under comparison). */
    env?: Record<string, string> | undefined;
    /** Extra node flags after npm start's own, which they override (a setting under comparison). */
    nodeFlags?: string[] | undefined;
  } = {},
): Promise<Served> {
  const s = npmStartSettings();
  // LEDGERLINK_BENCH_NODE_FLAGS: extra node flags for the measured service (profiling), as in bench/lib/process.ts.
  const extraFlags = (process.env.LEDGERLINK_BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const args = [
    ...s.nodeFlags,
    ...extraFlags,
    ...(options.nodeFlags ?? []),
    s.script,
    ...s.args,
    '--port',
    '0',
    '--data',
    dataDir,
    ...(options.extraArgs ?? []),
  ];
  const env = {
    ...cleanEnv(),
    ...s.env,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...(options.logLevel ? { LEDGERLINK_LOG_LEVEL: options.logLevel } : {}),
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.root ?? ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    running.add(child);
    const logs: LogCounts = { bytes: 0, warn: 0, error: 0, firstProblems: [] };
    let head = '';
    let ready = false;
    let carry = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      logs.bytes += chunk.length;
      if (!ready) {
        head += chunk.toString();
        const m = /listening on (https?:\/\/\S+)/.exec(head);
        if (m) {
          ready = true;
          resolve({ child, pid: child.pid!, url: m[1]!, logs, stop: () => stopChild(child) });
        }
        if (head.length > 1e6) head = head.slice(-2000);
      }
      // Warn-or-worse lines ("level":40 and up); a match split between two chunks is found in `boundary`.
      const boundary = carry + chunk.subarray(0, 12).toString('latin1');
      for (const m of boundary.matchAll(LEVEL)) {
        if (m.index < carry.length && m.index + m[0].length > carry.length) problem(Number(m[1]), '(line split between two reads)');
      }
      carry = chunk.subarray(Math.max(0, chunk.length - 12)).toString('latin1');
      if (chunk.indexOf('"level":4') === -1 && chunk.indexOf('"level":5') === -1 && chunk.indexOf('"level":6') === -1) return;
      const text = chunk.toString();
      for (const m of text.matchAll(LEVEL)) {
        const start = text.lastIndexOf('\n', m.index) + 1;
        const end = text.indexOf('\n', m.index);
        problem(Number(m[1]), text.slice(start, end === -1 ? undefined : end));
      }
    });
    function problem(level: number, line: string): void {
      if (level < 40) return;
      if (level >= 50) logs.error++;
      else logs.warn++;
      if (logs.firstProblems.length < 5) logs.firstProblems.push(line.slice(0, 400));
    }
    child.on('exit', (code) => {
      running.delete(child);
      if (!ready) reject(new Error(`${args.join(' ')} exited with ${code}: ${head.slice(-2000)}`));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.removeAllListeners('exit');
  const exited = new Promise((res) => child.once('exit', res));
  child.kill('SIGTERM');
  await exited;
  running.delete(child);
}

/** What `seed --json` prints (the seed's result and the partner's credentials), and how long it took. */
export interface SeedOutput extends SeedResult {
  partnerSecret: string;
  appKey: string;
  /** Wall time of the seed command, seconds. */
  seconds: number;
}

/** `ledgerlink seed --customers N --profile P --json [--transactions T] --data DIR`, through the installed command. */
export function seed(
  dataDir: string,
  options: { customers: number; profile: string; transactions?: number | undefined; databaseUrl?: string | undefined; root?: string | undefined },
): SeedOutput {
  const args = [
    'bin/ledgerlink.js',
    'seed',
    '--customers',
    String(options.customers),
    '--profile',
    options.profile,
    '--json',
    '--data',
    dataDir,
    ...(options.transactions !== undefined ? ['--transactions', String(options.transactions)] : []),
  ];
  const started = performance.now();
  const r = spawnSync(process.execPath, args, {
    cwd: options.root ?? ROOT,
    env: { ...cleanEnv(), ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}) },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`ledgerlink ${args.slice(1).join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}${r.stdout.slice(-2000)}`);
  const line = r.stdout.trim().split('\n').at(-1)!;
  return { ...(JSON.parse(line) as Omit<SeedOutput, 'seconds'>), seconds };
}

function vmRssMb(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds (user + system) a process and its children have used so far, from /proc (Linux; undefined
 * elsewhere). Per answer, this is what a request costs the service whatever else the machine runs, which makes
 * before/after comparisons on a shared machine far steadier than throughput.
 */
export function cpuSeconds(pid: number): number | undefined {
  if (!fs.existsSync(`/proc/${pid}/stat`)) return undefined;
  return [pid, ...childPids(pid)].reduce((sum, p) => sum + cpuMs(p), 0) / 1000;
}

/**
 * Samples the resident memory of a process and its children (the HTTP processes of `serve --workers N`) every
 * `everyMs`, summed over the tree; `peak()` is the highest sum since the last `reset()`. Linux only (n/a elsewhere).
 */
export class RssSampler {
  private max = 0;
  private overall = 0;
  private timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    everyMs = 200,
  ) {
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
    this.sample();
  }

  sample(): void {
    const total = [this.pid, ...childPids(this.pid)].map(vmRssMb).reduce<number>((a, b) => a + (b ?? 0), 0);
    if (total > this.max) this.max = total;
    if (total > this.overall) this.overall = total;
  }

  reset(): void {
    this.max = 0;
  }

  /** MB, since the last reset. */
  peak(): number {
    this.sample();
    return this.max;
  }

  /** MB, since the sampler started. */
  overallPeak(): number {
    return this.overall;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
