/**
 * Soak test: a bounded, mixed load against one Ledgerlink process while its memory is sampled, to show that
 * memory stays flat (no growth per request).
 *
 *   npm run build && npx tsx bench/soak.ts [--minutes 3] [--connections 16] [--write]
 *
 * The load cycles through reads of transactions, accounts and institutions, customer creation, and requests
 * that fail (unknown ids, malformed bodies). RSS is sampled every 5 s; the first fifth of the run is warm-up.
 * The report gives the RSS after warm-up, at the end, the peak, and the least-squares growth rate.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createPartner, rssMb, startLedgerlink, stop } from './lib/process.js';
import { machineLine, writeBenchSection } from './lib/report.js';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '3' }, connections: { type: 'string', default: '16' }, write: { type: 'boolean', default: false } },
});
const MINUTES = Number(values.minutes);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-soak-'));
const service = await startLedgerlink(dataDir);

async function json(res: Response): Promise<any> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

try {
  const creds = createPartner(dataDir);
  const { token } = await json(
    await fetch(`${service.url}/aggregation/v2/partners/authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'service-app-key': creds.appKey },
      body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret }),
    }),
  );
  const headers = { 'service-app-key': creds.appKey, 'service-app-token': token, 'content-type': 'application/json', accept: 'application/json' };
  const { id: customerId } = await json(
    await fetch(`${service.url}/aggregation/v2/customers/testing`, { method: 'POST', headers, body: JSON.stringify({ username: 'soak_customer' }) }),
  );
  await json(
    await fetch(`${service.url}/aggregation/v1/customers/${customerId}/institutions/102105/accounts/addall`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        credentials: [
          { id: '102105001', value: 'profile_03' },
          { id: '102105002', value: 'profile_03' },
        ],
      }),
    }),
  );
  await json(await fetch(`${service.url}/aggregation/v1/customers/${customerId}/accounts`, { method: 'POST', headers, body: '{}' }));
  const now = Math.floor(Date.now() / 1000);
  let n = 0;
  const requests: autocannon.Request[] = [
    { method: 'GET', path: `/aggregation/v3/customers/${customerId}/transactions?fromDate=${now - 180 * 86400}&toDate=${now}&limit=25` },
    {
      method: 'GET',
      path: `/aggregation/v3/customers/${customerId}/transactions?fromDate=${now - 180 * 86400}&toDate=${now}&limit=25&start=51&sort=asc`,
      headers: { ...headers, accept: 'application/xml' },
    },
    { method: 'GET', path: `/aggregation/v1/customers/${customerId}/accounts` },
    { method: 'GET', path: '/institution/v2/institutions?search=credit%20union&limit=25' },
    {
      method: 'POST',
      path: '/aggregation/v2/customers/testing',
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ username: `soak_${process.pid}_${n++}` }) }),
    },
    { method: 'GET', path: '/aggregation/v1/customers/999999' },
    { method: 'POST', path: '/aggregation/v2/customers/testing', body: '{"username": ' },
  ];
  const samples: Array<{ t: number; rss: number }> = [];
  const started = Date.now();
  const sampler = setInterval(() => {
    const r = rssMb(service.child.pid!);
    if (r) samples.push({ t: (Date.now() - started) / 60_000, rss: r.rss });
  }, 5000);
  const result = await autocannon({ url: service.url, headers, requests, connections: Number(values.connections), duration: MINUTES * 60 });
  clearInterval(sampler);
  const peak = rssMb(service.child.pid!)?.peak ?? NaN;
  const steady = samples.filter((s) => s.t >= MINUTES / 5);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const tm = mean(steady.map((s) => s.t));
  const rm = mean(steady.map((s) => s.rss));
  const slope = steady.reduce((a, s) => a + (s.t - tm) * (s.rss - rm), 0) / steady.reduce((a, s) => a + (s.t - tm) ** 2, 0);
  const table = [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npx tsx bench/soak.ts --minutes ${MINUTES} --connections ${values.connections}\` on ${machineLine()}, SQLite. Mixed load: transaction pages (JSON and XML), accounts, institution search, customer creation, and failing requests (404, malformed JSON). RSS sampled every 5 s; the first fifth is warm-up.`,
    '',
    '| requests | req/s | 5xx | RSS after warm-up | RSS at end | peak RSS | growth after warm-up |',
    '|---|---|---|---|---|---|---|',
    `| ${result.requests.total} | ${Math.round(result.requests.average)} | ${result['5xx']} | ${steady[0]?.rss.toFixed(0)} MB | ${samples.at(-1)?.rss.toFixed(0)} MB | ${peak.toFixed(0)} MB | ${slope.toFixed(2)} MB/min |`,
  ].join('\n');
  process.stdout.write(table + '\n');
  if (values.write) writeBenchSection('soak', 'Soak: memory under a bounded mixed load', table);
} finally {
  await stop(service);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
