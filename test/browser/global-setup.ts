import { execFileSync } from 'node:child_process';
import { ROOT } from '../helpers/cli.js';

/** Builds the Connect app, the SDK and the dashboard (what `npm run build` does) before the browser tests load them. */
export default function setup(): void {
  execFileSync('npm', ['run', '--silent', 'build:web'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}
