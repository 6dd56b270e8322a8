#!/usr/bin/env node
// The installed command runs the compiled CLI (npm ci builds it through the `prepare` script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/main/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('error: Ledgerlink is not built yet\nhint: run `npm run build` (npm ci does it for you)\n');
  process.exit(1);
}
await import(entry.href);
