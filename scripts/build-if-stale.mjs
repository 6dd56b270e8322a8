#!/usr/bin/env node
/**
 * `npm start` builds only when the sources changed since the last build: a restart of an unchanged checkout goes
 * straight to serving instead of spending seconds in tsc and Vite. The last build's inputs (every source file's
 * path, size and modification time) are kept as one fingerprint in dist/.build-inputs; a file added, removed or
 * touched since then makes the build run again.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** What the build reads: the TypeScript sources, the browser apps, and the files that configure both. */
export const INPUTS = ['src', 'web', 'scripts/bundle.mjs', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
export const STAMP = path.join('dist', '.build-inputs');

function* filesUnder(root, entry) {
  const full = path.join(root, entry);
  let stat;
  try {
    stat = fs.statSync(full);
  } catch {
    return;
  }
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(full).sort()) yield* filesUnder(root, path.join(entry, name));
  } else if (stat.isFile()) {
    yield { path: entry, size: stat.size, mtimeMs: stat.mtimeMs };
  }
}

/** One fingerprint of the build's inputs under `root`. */
export function inputsFingerprint(root = ROOT, inputs = INPUTS) {
  const hash = createHash('sha256');
  for (const entry of inputs) for (const f of filesUnder(root, entry)) hash.update(`${f.path}\0${f.size}\0${f.mtimeMs}\n`);
  return hash.digest('hex');
}

/** Whether the build under `root` is missing or older than its inputs. */
export function buildIsStale(root = ROOT, inputs = INPUTS) {
  if (!fs.existsSync(path.join(root, 'dist', 'bundle', 'ledgerlink.js'))) return true;
  let recorded;
  try {
    recorded = fs.readFileSync(path.join(root, STAMP), 'utf8').trim();
  } catch {
    return true;
  }
  return recorded !== inputsFingerprint(root, inputs);
}

/** Builds (npm run build) when stale, then records the inputs it built from. */
export function buildIfStale(root = ROOT) {
  if (!buildIsStale(root)) return false;
  const before = inputsFingerprint(root);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // A file changed during the build is built next time: record what the build started from.
  fs.writeFileSync(path.join(root, STAMP), `${before}\n`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) buildIfStale();
