import { execFileSync } from 'node:child_process';
import { ROOT } from './cli.js';

/**
 * The global set-up of every test project that runs the build: the system tests' CLI processes and the client's
 * tests against a real `ledgerlink serve` (dist/), the browser tests' apps (dist/web). It builds when a source
 * changed since the last build (scripts/build-if-stale.mjs, the check `npm start` makes); vitest sets projects up
 * one after another, so the first one builds and the others find the build fresh.
 */
export default function buildIfStale(): void {
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}
