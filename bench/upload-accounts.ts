/**
 * Statement files of many accounts: how long an upload takes and what it costs in CPU when a file holds many small
 * accounts (a bank's export of every account, a camt.053 of a company's accounts) against one account of as many
 * transactions, and what it costs other requests.
 *
 *   npx tsx bench/upload-accounts.ts [--postgres] [--rounds 3]
 *   BENCH_COMPARE_ROOT=/path/to/other/checkout npx tsx bench/upload-accounts.ts   (built there first)
 *
 * Each file (OFX 1.x, test/helpers/statement-files.ts: one transaction a few days apart per account, a closing
 * balance at the end of March, so each account's balance history derives about 90 days) is uploaded through the API of
 * a service started as npm start runs it, to a fresh customer, while a second client asks GET /health one request
 * after another. With BENCH_COMPARE_ROOT, the same service from the other checkout runs beside it on its own store,
 * and the two take turns upload by upload. Reported per file: the median over the rounds of the upload's time and of
 * the service's CPU (all its threads), and the 95th percentile and the worst of the /health latencies during the
 * uploads (every round's probes together: the worst alone is one sample).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ofxDay, ofxStatementFile } from '../test/helpers/statement-files.js';
import { cpuMs, createPartner } from './lib/process.js';
import { timedRequest } from './lib/timed-request.js';
import { machineLine } from './lib/report.js';
import { startServed, type Served } from './lib/served.js';
import { createPgSchema, type PgSchema } from './lib/store.js';

const FINBANK = 101732;

/** Accounts and transactions per account of each file measured: many small accounts, then one large one as the control. */
const FILES = [
  { accounts: 200, each: 1 },
  { accounts: 200, each: 5 },
  { accounts: 50, each: 40 },
  { accounts: 1, each: 1000 },
];

const { values } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
  },
});

function fileOf(accounts: number, each: number): string {
  return ofxStatementFile(
    Array.from({ length: accounts }, (_, i) => ({
      acctId: `88${String(i).padStart(6, '0')}`,
      transactions: Array.from({ length: each }, (_, k) => ({ fitId: `B${i}-${k}`, date: ofxDay(1 + (k % 80)), amount: -(1 + ((i + k) % 97)), name: 'SHOP' })),
    })),
  );
}

interface Side {
  label: string;
  served: Served;
  headers: Record<string, string>;
  schema: PgSchema | undefined;
}

async function startSide(label: string, root: string | undefined): Promise<Side> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-bench-accounts-'));
  const schema = values.postgres ? await createPgSchema() : undefined;
  const creds = createPartner(dir, { ...(schema ? { databaseUrl: schema.url } : {}), ...(root ? { root } : {}) });
  const served = await startServed(dir, { databaseUrl: schema?.url, root, logLevel: 'warn' });
  const auth = await timedRequest(served.url, '/aggregation/v2/partners/authentication', {
    method: 'POST',
    headers: { 'service-app-key': creds.appKey, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret }),
  });
  const token = (JSON.parse(auth.body) as { token: string }).token;
  return { label, served, schema, headers: { 'service-app-key': creds.appKey, 'service-app-token': token, accept: 'application/json' } };
}

/** One upload of `text` to a new customer of the side: its time, the service's CPU, the /health latencies meanwhile. */
async function uploadOnce(side: Side, text: string, accounts: number): Promise<{ ms: number; cpu: number; health: number[] }> {
  const base = side.served.url;
  const created = await timedRequest(base, '/aggregation/v2/customers/testing', {
    method: 'POST',
    headers: { ...side.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ username: `bench-accounts-${Date.now()}-${Math.random().toString(36).slice(2)}`, firstName: 'Bench', lastName: 'Accounts' }),
  });
  const customerId = (JSON.parse(created.body) as { id: string }).id;
  let done = false;
  const cpu0 = cpuMs(side.served.pid);
  const upload = timedRequest(base, `/aggregation/v1/customers/${customerId}/institutions/${FINBANK}/statements`, {
    method: 'POST',
    headers: { ...side.headers, 'content-type': 'application/x-ofx' },
    body: text,
  }).finally(() => {
    done = true;
  });
  const health: number[] = [];
  while (!done) {
    health.push((await timedRequest(base, '/health')).ms);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const answer = await upload;
  const cpu = cpuMs(side.served.pid) - cpu0;
  if (answer.status !== 200) throw new Error(`${side.label}: ${answer.status} ${answer.body.slice(0, 300)}`);
  const stored = (JSON.parse(answer.body) as { accounts: unknown[] }).accounts.length;
  if (stored !== accounts) throw new Error(`${side.label}: ${stored} accounts stored of ${accounts}`);
  return { ms: answer.ms, cpu, health };
}

const quantile = (list: number[], q: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(q * list.length))]!;
const median = (list: number[]) => quantile(list, 0.5);

async function main(): Promise<void> {
  const rounds = Number(values.rounds);
  if (!(rounds >= 1)) throw new Error('--rounds takes a number from 1');
  const compareRoot = process.env.BENCH_COMPARE_ROOT || undefined;
  const sides = [await startSide('A', undefined), ...(compareRoot ? [await startSide('B', compareRoot)] : [])];
  try {
    // One small file first on each side, so that no row carries the first use of the reader thread.
    for (const side of sides) await uploadOnce(side, fileOf(2, 2), 2);
    const results = new Map<string, { ms: number[]; cpu: number[]; health: number[] }>();
    for (let round = 0; round < rounds; round++) {
      for (const f of FILES) {
        const text = fileOf(f.accounts, f.each);
        // The sides take turns, the first changing every round.
        for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
          const r = await uploadOnce(side, text, f.accounts);
          const key = `${f.accounts}x${f.each} ${side.label}`;
          const entry = results.get(key) ?? { ms: [], cpu: [], health: [] };
          entry.ms.push(r.ms);
          entry.cpu.push(r.cpu);
          entry.health.push(...r.health);
          results.set(key, entry);
        }
      }
    }
    console.log(`${machineLine()}; ${values.postgres ? 'PostgreSQL' : 'SQLite (file)'}; ${rounds} rounds${compareRoot ? `; B: ${compareRoot}` : ''}`);
    console.log('');
    console.log(
      `| file | ${sides.map((s) => `upload ms (${s.label})`).join(' | ')} | ${sides.map((s) => `CPU ms (${s.label})`).join(' | ')} | ${sides.map((s) => `/health ms p95 · worst (${s.label})`).join(' | ')} |`,
    );
    console.log(`|---|${sides.map(() => '---|').join('')}${sides.map(() => '---|').join('')}${sides.map(() => '---|').join('')}`);
    for (const f of FILES) {
      const of = (s: Side) => results.get(`${f.accounts}x${f.each} ${s.label}`)!;
      console.log(
        `| ${f.accounts} accounts x ${f.each} | ${sides.map((s) => median(of(s).ms).toFixed(0)).join(' | ')} | ${sides.map((s) => median(of(s).cpu).toFixed(0)).join(' | ')} | ${sides.map((s) => `${quantile(of(s).health, 0.95).toFixed(1)} · ${Math.max(...of(s).health).toFixed(1)}`).join(' | ')} |`,
      );
    }
  } finally {
    for (const side of sides) {
      await side.served.stop();
      await side.schema?.drop();
    }
  }
}

await main();
