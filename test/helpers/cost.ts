/**
 * Measuring what hostile input costs a reader against a plain input of the same size, in one run (the one timing a
 * test may assert: a ratio, docs/architecture.md "Tests").
 */

/** `unit` repeated to about `size` characters (once at least). */
export function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.max(1, Math.floor(size / unit.length)));
}

function timeOf(read: (text: string) => unknown, text: string): number {
  const started = performance.now();
  read(text);
  return performance.now() - started;
}

/**
 * The best times of a few rounds, in ms, the plain body and the hostile one taking turns so that other work on the
 * machine (other test files run beside this one) weighs on both alike.
 */
export function bestTimes(read: (text: string) => unknown, plain: string, hostile: string, rounds = 5): { plain: number; hostile: number } {
  let best = { plain: Number.POSITIVE_INFINITY, hostile: Number.POSITIVE_INFINITY };
  for (let i = 0; i < rounds; i++) best = { plain: Math.min(best.plain, timeOf(read, plain)), hostile: Math.min(best.hostile, timeOf(read, hostile)) };
  return best;
}
