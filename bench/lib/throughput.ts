/** What the outbox benchmarks (delivery, txpush) share: per-dialect runs, percentiles and result rows. */
import type { DialectName } from '../../src/platform/db/database.js';

export interface ThroughputResult {
  dialect: DialectName;
  /** Deliveries (or notifications) per second through a backlog. */
  perSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
}

/** The p-th percentile of ascending values (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs the benchmark for `both` dialects or the one named, one after the other. */
export async function runPerDialect(
  which: string | undefined,
  what: string,
  run: (dialect: DialectName) => Promise<ThroughputResult>,
): Promise<ThroughputResult[]> {
  const dialects: DialectName[] = which === 'both' ? ['sqlite', 'postgres'] : [which as DialectName];
  const results: ThroughputResult[] = [];
  for (const d of dialects) {
    process.stderr.write(`${d}: ${what}...\n`);
    results.push(await run(d));
  }
  return results;
}

/** One Markdown table row per result: database, per second, p50, p99. */
export function resultRows(results: readonly ThroughputResult[]): string[] {
  return results.map(
    (r) =>
      `| ${r.dialect === 'sqlite' ? 'SQLite (file, WAL)' : 'PostgreSQL (local)'} | ${Math.round(r.perSecond)} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms |`,
  );
}
