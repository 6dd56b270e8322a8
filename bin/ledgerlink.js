#!/usr/bin/env node
// The installed command runs the built CLI, one bundle of the compiled sources (npm ci builds it through the `prepare` script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/bundle/ledgerlink.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('error: Ledgerlink is not built yet\nhint: run `npm run build` (npm ci does it for you)\n');
  process.exit(1);
}
await import(entry.href);
