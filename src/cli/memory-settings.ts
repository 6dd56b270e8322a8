/**
 * Process settings that keep a serving process's memory down without costing throughput (docs/operations.md):
 *
 * - `--max-semi-space-size=4`: V8's young generation grows to 16 MB semi-spaces (about 30 MB resident) under a
 *   high allocation rate; a request's garbage dies young, so 4 MB semi-spaces collect it just as well.
 * - `MALLOC_MMAP_THRESHOLD_=4194304`: glibc otherwise raises its mmap threshold after the first 16 MiB scrypt
 *   buffer is freed, and from then on keeps every such buffer in the worker thread's arena for good (up to four
 *   threads × 16 MiB). Above 4 MiB, allocations go straight back to the system when freed.
 *
 * - `--single-threaded-gc`: V8 runs its collections on the main thread only. On a small machine its helper
 *   threads compete with the process itself and whatever else runs there (on two cores: 43,000 against 40,000
 *   GET partner requests per second, bench/http.ts), and no helper keeps buffers of its own.
 *
 * All must be in place when a process starts, so they apply to the processes Ledgerlink starts itself (the HTTP
 * processes of `serve --workers`) and to `npm start`; other launchers set them as the docs describe.
 */
export const MEMORY_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--single-threaded-gc'];
export const MEMORY_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '4194304' };

/** `execArgv` plus the memory flags the operator did not set otherwise. */
export function withMemoryFlags(execArgv: readonly string[]): string[] {
  // `--max-semi-space-size=16` replaces ours, and so does `--no-single-threaded-gc`.
  const named = (flag: string) => flag.split('=')[0]!.replace(/^--no-/, '--').replaceAll('_', '-');
  return [...execArgv, ...MEMORY_NODE_FLAGS.filter((flag) => !execArgv.some((a) => named(a) === named(flag)))];
}

/** The memory environment variables the operator did not set otherwise. */
export function memoryEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(MEMORY_ENV).filter(([name]) => env[name] === undefined));
}
