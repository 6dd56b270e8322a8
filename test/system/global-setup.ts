import { execFileSync } from 'node:child_process';
import { ROOT } from '../helpers/cli.js';

/** Builds dist/ (what `npm start` runs, and the processes these tests start) when the sources changed since the last build. */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}
