#!/usr/bin/env node
// The checks `npm test` runs before the test projects: the type check (service and client package), Biome's format
// and lint, and the dependency rule; and, beside them, the build the system, browser and client tests run (when the
// sources changed since the last one), which their global set-up would otherwise make while the first test files
// wait. They are independent, so they run at once (the type check and the build are the long ones, each on one core
// mostly); each one's output is printed whole, in this order, once all have ended.
import { spawn } from 'node:child_process';

const CHECKS = [
  ['type check', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['type check (client package)', 'npx', ['tsc', '-p', 'packages/client/tsconfig.build.json', '--noEmit']],
  ['format and lint', 'npx', ['biome', 'ci', '.']],
  ['dependency rule', 'npx', ['depcruise', 'src', '--config', '.dependency-cruiser.cjs']],
  ['build', process.execPath, ['scripts/build-if-stale.mjs']],
];

function run([name, command, args]) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ name, code: 1, output: Buffer.from(String(error)), seconds: 0 }));
    child.on('close', (code) => resolve({ name, code: code ?? 1, output: Buffer.concat(output), seconds: (Date.now() - started) / 1000 }));
  });
}

const results = await Promise.all(CHECKS.map(run));
let failed = false;
for (const { name, code, output, seconds } of results) {
  console.log(`\n── ${name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds.toFixed(1)} s`);
  if (output.length > 0) process.stdout.write(output);
  failed ||= code !== 0;
}
process.exit(failed ? 1 : 0);
