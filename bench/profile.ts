/**
 * CPU profile of one hot path, in-process: builds the app on a fresh SQLite store, prepares a customer who linked
 * test profile_03 (initial aggregation done), warms up, then profiles N requests through app.inject with the V8
 * profiler and prints the functions with the most self time, and the mean time per request.
 *
 *   npx tsx bench/profile.ts [--scenario transactions-json|transactions-xml|accounts-json|partner-json] [--requests 3000] [--top 25] [--out profile.cpuprofile]
 *
 * --out writes the .cpuprofile for Chrome DevTools or speedscope.
 */
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openLinkedApp } from './lib/linked-app.js';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'transactions-json' },
    requests: { type: 'string', default: '3000' },
    top: { type: 'string', default: '25' },
    out: { type: 'string' },
  },
});
const REQUESTS = Number(values.requests);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const { app, headers, customerId, close } = await openLinkedApp('profile');
try {
  const now = Math.floor(Date.now() / 1000);
  const transactions = `/aggregation/v3/customers/${customerId}/transactions?fromDate=${now - 180 * 86_400}&toDate=${now}&limit=25`;
  const scenarios: Record<string, { url: string; accept: string }> = {
    'transactions-json': { url: transactions, accept: 'application/json' },
    'transactions-xml': { url: transactions, accept: 'application/xml' },
    'accounts-json': { url: `/aggregation/v1/customers/${customerId}/accounts`, accept: 'application/json' },
    'partner-json': { url: '/aggregation/v1/partners/me', accept: 'application/json' },
  };
  const scenario = scenarios[values.scenario];
  if (!scenario) throw new Error(`unknown scenario ${values.scenario}; one of ${Object.keys(scenarios).join(', ')}`);
  const run = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const res = await app.inject({ method: 'GET', url: scenario.url, headers: { ...headers, accept: scenario.accept } });
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body.slice(0, 200)}`);
    }
  };
  await run(300);

  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const t0 = performance.now();
  await run(REQUESTS);
  const elapsed = performance.now() - t0;
  const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };
  session.disconnect();
  if (values.out) fs.writeFileSync(values.out, JSON.stringify(profile));

  const self = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    total += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^.*\/(node_modules\/)?/, (m) => (m.includes('node_modules') ? 'node_modules/' : ''))}:${lineNumber + 1}` : '(native)';
    const key = `${functionName || '(anonymous)'} ${where}`;
    self.set(key, (self.get(key) ?? 0) + hits);
  }
  process.stdout.write(
    `${values.scenario}: ${REQUESTS} requests in ${elapsed.toFixed(0)} ms, ${((elapsed / REQUESTS) * 1000).toFixed(0)} µs per request (app.inject, no network)\n\nself time:\n`,
  );
  for (const [key, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
    process.stdout.write(`${((hits / total) * 100).toFixed(1).padStart(5)} %  ${key}\n`);
  }
} finally {
  await close();
}
