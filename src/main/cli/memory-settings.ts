import v8 from 'node:v8';

/**
 * Process settings for a serving process's memory and CPU (docs/operations.md):
 *
 * - `--max-semi-space-size=16`: V8's young generation may grow to 16 MB semi-spaces under a high allocation rate,
 *   on every Node version. Smaller ones save some memory but cost CPU once requests miss the caches: with
 *   dozens of requests in flight, each scavenge finds their rows and records still alive, copies them and
 *   promotes them to the old generation, whose collections are dearer (docs/benchmarks.md, "The young generation
 *   when requests miss the caches").
 * - `MALLOC_MMAP_THRESHOLD_=4194304`: glibc otherwise raises its mmap threshold after the first 16 MiB scrypt
 *   buffer is freed, and from then on keeps every such buffer in the worker thread's arena for good (up to four
 *   threads × 16 MiB). Above 4 MiB, allocations go straight back to the system when freed.
 *
 * - `--single-threaded-gc`: V8 runs its collections on the main thread only. On a small machine its helper
 *   threads compete with the process itself and whatever else runs there (on two cores: 43,000 against 40,000
 *   GET partner requests per second, bench/http.ts), and no helper keeps buffers of its own.
 *
 * - `--max-old-space-size=1024`: on a machine with a few GB of memory or more, V8 gives a 64-bit Node heap a
 *   limit of 2 GB or more, and then lets the old generation grow to up to 4 × what survived the last full
 *   collection before it collects again. Under a limit below 2 GB it scales that factor down (about 1.6 at
 *   1 GB). The service holds about 50 MB, so after a quiet spell the first burst of load grew the heap by about
 *   150 MB before V8 collected (peak RSS 290–300 MB in the benchmark, 200–215 MB with this flag; throughput
 *   unchanged). 1 GB is still 20 times what the service holds.
 *
 * All must be in place when a process starts, so they apply to the processes Ledgerlink starts itself (the HTTP
 * processes of `serve --workers`) and to `npm start`; other launchers set them as the docs describe.
 */
export const MEMORY_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16', '--single-threaded-gc', '--max-old-space-size=1024'];
export const MEMORY_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '4194304' };

/** `execArgv` plus the memory flags the operator did not set otherwise. */
export function withMemoryFlags(execArgv: readonly string[]): string[] {
  // `--max-semi-space-size=16` replaces ours, and so does `--no-single-threaded-gc`.
  const named = (flag: string) =>
    flag
      .split('=')[0]!
      .replace(/^--no-/, '--')
      .replaceAll('_', '-');
  return [...execArgv, ...MEMORY_NODE_FLAGS.filter((flag) => !execArgv.some((a) => named(a) === named(flag)))];
}

/**
 * Lets the worker threads this process starts have the heap sizes they ask for. V8 puts a size flag on the command
 * line above a worker's `resourceLimits`, so with npm start's flags the request log's writer thread, which asks for a
 * 1 MB young generation and a 16 MB old one, had this process's semi-spaces and heap limit (docs/benchmarks.md,
 * "Worker threads' heaps and the bundle's strings"). This process's own heap keeps the sizes it started with: V8
 * reads these flags when it makes an isolate.
 */
export function letWorkersKeepTheirLimits(): void {
  v8.setFlagsFromString('--max-semi-space-size=0');
  v8.setFlagsFromString('--max-old-space-size=0');
}

/** The memory environment variables the operator did not set otherwise. */
export function memoryEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(MEMORY_ENV).filter(([name]) => env[name] === undefined));
}
