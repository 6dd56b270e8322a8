/**
 * Lending reports: what a Verification of Assets (VOA) and a cash-flow report (personal) cost the service, each as a
 * multiple of one transaction page measured in the same run, and whether that cost grows linearly with the
 * transactions.
 *
 *   npx tsx bench/reports.ts [--postgres] [--accounts 10] [--transactions 7000] [--repeat 5] [--pages 200] [--poll-ms 10] [--write]
 *
 * Two customers of one partner, each with a consumer and `--accounts` checking accounts: one with two years of
 * history (`--transactions` per account, a few a day), one with one year (half as many). The service runs from dist/
 * as npm start runs it (bench/lib/process.ts), on a SQLite file (or PostgreSQL with --postgres), with the worker
 * polling every `--poll-ms` (LEDGERLINK_WORKER_POLL_MS; 10, its smallest, by default, so a report waits as little as
 * possible for it: nothing wakes the worker when a report is asked for).
 *
 * The store is filled through the API: one OFX download per account (bench/lib/statement-history.ts), uploaded as a
 * customer bringing their statements would. That is the service's one storing path (reading, categorising, matching,
 * and deriving each account's daily balances from the closing balance), so the rows the reports read, their
 * categories and the balance history are exactly what the service stores for such a customer; inserting rows through
 * the repositories would be faster but would leave out the balance history or write it a second way. The test bank's
 * profiles have fixed accounts and activity (profile_04: seven accounts, about 3,000 transactions each over two
 * years), so they cannot be sized to this customer.
 *
 * Measured, for each customer:
 * - the unit: one page of the customer's transactions (`GET /aggregation/v3/customers/{id}/transactions`, the
 *   default 25, two years back to now), `--pages` times one after another, each URL new (toDate one second earlier)
 *   so the response cache never answers; wall time is the median, CPU the total over the pages divided by them;
 * - each report `--repeat` times (runs interleaved, in another order each time): wall time from the Generate call
 *   sent to the report's row turning `success` (read from the database by this process every 5 ms, so watching costs
 *   the service nothing), and the CPU the service process used meanwhile (all its threads, /proc/PID/stat); medians;
 * - then reading the last report once (Get Report by customer, JSON): its size, wall time and CPU.
 * The service's idle CPU (the workers polling) is measured first and subtracted from every CPU figure; the database
 * server's own CPU (PostgreSQL) is not counted. Cost per 1,000 transactions divides by the transactions the report
 * covers: a VOA reads 12 months whatever the history holds, the cash-flow report 24 months. --write puts the table
 * into docs/benchmarks.md.
 */
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { consumerBody } from '../test/helpers/consumers.js';
import { createPartner, startLedgerlink, stop } from './lib/process.js';
import { machineLine, writeBenchSection } from './lib/report.js';
import { cpuSeconds } from './lib/served.js';
import { accountHistory, ofxDownload } from './lib/statement-history.js';
import { createPgSchema } from './lib/store.js';

const { values } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    accounts: { type: 'string', default: '10' },
    transactions: { type: 'string', default: '7000' },
    repeat: { type: 'string', default: '5' },
    'poll-ms': { type: 'string', default: '10' },
    pages: { type: 'string', default: '200' },
    write: { type: 'boolean', default: false },
  },
});
const ACCOUNTS = Number(values.accounts);
const PER_ACCOUNT = Number(values.transactions);
const REPEAT = Number(values.repeat);
const PAGES = Number(values.pages);
const POLL_MS = values['poll-ms'];
const FINBANK = 101732;
const DAY = 86_400;

const REPORTS = [
  { name: 'VOA', type: 'voa', path: 'voa' },
  { name: 'Cash flow (personal)', type: 'cfrp', path: 'cashFlowPersonal' },
] as const;
type ReportName = (typeof REPORTS)[number]['name'];

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function request(base: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; ms: number; body: string }>((resolve, reject) => {
    const start = performance.now();
    const req = http.request(`${base}${path}`, { method: options.method ?? 'GET', headers: options.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - start, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function expectStatus(answer: { status: number; body: string }, status: number, what: string): void {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.body.slice(0, 400)}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const thousands = (n: number) => n.toLocaleString('en-US');

/** Reads a report's status straight from the database the service writes, without asking the service. */
interface StatusReader {
  status(id: string): Promise<string | undefined>;
  close(): Promise<void>;
}

async function statusReader(dataDir: string, pgUrl: string | undefined): Promise<StatusReader> {
  if (pgUrl) {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    return {
      status: async (id) => (await client.query<{ status: string }>('select status from reports where id = $1', [id])).rows[0]?.status,
      close: () => client.end(),
    };
  }
  const db = new SQLite(path.join(dataDir, 'ledgerlink.sqlite'), { readonly: true, fileMustExist: true });
  const select = db.prepare<[string], { status: string }>('select status from reports where id = ?');
  return {
    status: async (id) => select.get(id)?.status,
    close: async () => {
      db.close();
    },
  };
}

interface Customer {
  label: string;
  days: number;
  id: string;
  stored: number;
  fillSeconds: number;
}

/** Transactions listed in a report body (its institutions' accounts' transactions). */
function transactionsIn(body: { institutions?: { accounts?: { transactions?: unknown[] }[] }[] }): number {
  let n = 0;
  for (const i of body.institutions ?? []) for (const a of i.accounts ?? []) n += a.transactions?.length ?? 0;
  return n;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-bench-reports-'));
  const schema = values.postgres ? await createPgSchema() : undefined;
  const env = schema ? { DATABASE_URL: schema.url } : {};
  const creds = createPartner(dir, { databaseUrl: schema?.url });
  const service = await startLedgerlink(dir, { ...env, LEDGERLINK_WORKER_POLL_MS: POLL_MS });
  const base = service.url;
  const pid = service.child.pid!;
  const cpuMs = () => (cpuSeconds(pid) ?? Number.NaN) * 1000;
  const reader = await statusReader(dir, schema?.url);
  try {
    const auth = await request(base, '/aggregation/v2/partners/authentication', {
      method: 'POST',
      headers: { 'service-app-key': creds.appKey, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret }),
    });
    expectStatus(auth, 200, 'authentication');
    const headers = { 'service-app-key': creds.appKey, 'service-app-token': JSON.parse(auth.body).token as string, accept: 'application/json' };
    const json = { ...headers, 'content-type': 'application/json' };

    // The two customers, filled through statement uploads.
    const customers: Customer[] = [];
    for (const [label, days, perAccount] of [
      ['2 years', 730, PER_ACCOUNT],
      ['1 year', 365, Math.round(PER_ACCOUNT / 2)],
    ] as const) {
      const created = await request(base, '/aggregation/v2/customers/testing', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ username: `bench-reports-${days}-${Date.now()}`, firstName: 'Bench', lastName: 'Reports' }),
      });
      expectStatus(created, 201, 'customer');
      const id = (JSON.parse(created.body) as { id: string }).id;
      expectStatus(
        await request(base, `/decisioning/v1/customers/${id}/consumer`, { method: 'POST', headers: json, body: JSON.stringify(consumerBody()) }),
        201,
        'consumer',
      );
      const started = performance.now();
      let stored = 0;
      for (let a = 0; a < ACCOUNTS; a++) {
        const history = accountHistory({ acctId: `${days}${String(a).padStart(7, '0')}`, days, transactions: perAccount, seed: days * 100 + a });
        const upload = await request(base, `/aggregation/v1/customers/${id}/institutions/${FINBANK}/statements`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/x-ofx' },
          body: ofxDownload(history),
        });
        expectStatus(upload, 200, `upload of account ${a + 1}`);
        stored += (JSON.parse(upload.body) as { transactionsAdded: number }).transactionsAdded;
      }
      const fillSeconds = (performance.now() - started) / 1000;
      customers.push({ label, days, id, stored, fillSeconds });
      process.stderr.write(`${label}: ${thousands(stored)} transactions in ${ACCOUNTS} accounts, uploaded in ${fillSeconds.toFixed(1)} s\n`);
    }

    // What the service spends doing nothing (its workers polling), subtracted from every figure below.
    await sleep(1000);
    const idleStart = performance.now();
    const idleCpu0 = cpuMs();
    await sleep(3000);
    const idlePerMs = (cpuMs() - idleCpu0) / (performance.now() - idleStart);
    const cpuSince = (cpu0: number, t0: number) => cpuMs() - cpu0 - idlePerMs * (performance.now() - t0);

    let pageSerial = 0;
    const page = (c: Customer) => {
      // A URL never asked before, so the response cache has no answer for it.
      const to = Math.floor(Date.now() / 1000) - ++pageSerial;
      return request(base, `/aggregation/v3/customers/${c.id}/transactions?fromDate=${to - 730 * DAY}&toDate=${to}`, { headers });
    };

    async function runReport(c: Customer, report: (typeof REPORTS)[number]): Promise<{ id: string; ms: number; cpu: number }> {
      const t0 = performance.now();
      const cpu0 = cpuMs();
      const generated = await request(base, `/decisioning/v2/customers/${c.id}/${report.path}`, { method: 'POST', headers: json, body: '{}' });
      expectStatus(generated, 202, `${report.name} of ${c.label}`);
      const id = (JSON.parse(generated.body) as { id: string }).id;
      for (;;) {
        const status = await reader.status(id);
        if (status !== 'inProgress') {
          const ms = performance.now() - t0;
          const cpu = cpuSince(cpu0, t0);
          if (status !== 'success') throw new Error(`${report.name} of ${c.label} ended ${status}`);
          return { id, ms, cpu };
        }
        await sleep(5);
      }
    }

    // Warm-up: validators and serialisers are compiled on first use, and the JIT has seen every path once.
    for (const c of customers) for (let i = 0; i < 20; i++) expectStatus(await page(c), 200, 'page');
    for (const report of REPORTS) await runReport(customers.at(-1)!, report);

    const pages = new Map<Customer, { ms: number; cpu: number }>();
    for (const c of customers) {
      const ms: number[] = [];
      const t0 = performance.now();
      const cpu0 = cpuMs();
      for (let i = 0; i < PAGES; i++) {
        const answer = await page(c);
        expectStatus(answer, 200, 'page');
        ms.push(answer.ms);
      }
      pages.set(c, { ms: median(ms), cpu: cpuSince(cpu0, t0) / PAGES });
    }

    // Each repetition in another order (shuffled, the same every run), so no report always follows the same one: the
    // garbage a large report leaves is collected during whichever runs next.
    const plan = customers.flatMap((c) => REPORTS.map((report) => ({ c, report })));
    const runs = new Map<string, { id: string; ms: number; cpu: number }[]>();
    let seed = 7;
    for (let r = 0; r < REPEAT; r++) {
      for (let i = plan.length - 1; i > 0; i--) {
        seed = (seed * 48271) % 2147483647;
        const j = seed % (i + 1);
        [plan[i], plan[j]] = [plan[j]!, plan[i]!];
      }
      for (const { c, report } of plan) {
        const run = await runReport(c, report);
        const key = `${c.label}/${report.name}`;
        runs.set(key, [...(runs.get(key) ?? []), run]);
        process.stderr.write(`${key} #${r + 1}: ${run.ms.toFixed(0)} ms, ${run.cpu.toFixed(0)} ms CPU\n`);
      }
    }

    interface Row {
      customer: Customer;
      report: ReportName;
      covered: number;
      ms: number;
      cpu: number;
      readBytes: number;
      readMs: number;
      readCpu: number;
    }
    const rows: Row[] = [];
    for (const c of customers) {
      for (const report of REPORTS) {
        const list = runs.get(`${c.label}/${report.name}`)!;
        const t0 = performance.now();
        const cpu0 = cpuMs();
        const read = await request(base, `/decisioning/v3/customers/${c.id}/reports/${list.at(-1)!.id}`, { headers });
        const readCpu = cpuSince(cpu0, t0);
        expectStatus(read, 200, `reading the ${report.name} of ${c.label}`);
        rows.push({
          customer: c,
          report: report.name,
          covered: transactionsIn(JSON.parse(read.body)),
          ms: median(list.map((x) => x.ms)),
          cpu: median(list.map((x) => x.cpu)),
          readBytes: Buffer.byteLength(read.body),
          readMs: read.ms,
          readCpu,
        });
      }
    }

    const perK = (row: Row) => ({ ms: (row.ms / row.covered) * 1000, cpu: (row.cpu / row.covered) * 1000 });
    const lines = rows.map((row) => {
      const unit = pages.get(row.customer)!;
      const k = perK(row);
      const other = rows.find((o) => o.report === row.report && o.customer !== row.customer)!;
      const ratio = row.customer === customers[0] ? `${(k.ms / perK(other).ms).toFixed(2)} / ${(k.cpu / perK(other).cpu).toFixed(2)}` : '';
      return `| ${row.customer.label} | ${thousands(row.customer.stored)} | ${row.report} | ${thousands(row.covered)} | ${row.ms.toFixed(0)} ms (${(row.ms / unit.ms).toFixed(0)}×) | ${row.cpu.toFixed(0)} ms (${(row.cpu / unit.cpu).toFixed(0)}×) | ${k.ms.toFixed(1)} / ${k.cpu.toFixed(1)} ms | ${ratio} | ${(row.readBytes / 1024 / 1024).toFixed(1)} MB, ${row.readMs.toFixed(0)} ms, ${row.readCpu.toFixed(0)} ms CPU |`;
    });
    const unitText = customers.map((c) => `${c.label}: ${pages.get(c)!.ms.toFixed(2)} ms wall (median), ${pages.get(c)!.cpu.toFixed(2)} ms CPU`).join('; ');
    const body = [
      `${machineLine()}; ${values.postgres ? 'PostgreSQL' : 'SQLite (file)'}; ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; shared machine.`,
      '',
      `Two customers with ${ACCOUNTS} checking accounts each and a consumer: one with two years of history (about ${thousands(PER_ACCOUNT)} transactions an account, a few a day), one with one year (half as many), stored through the API as one OFX download per account (${customers.map((c) => `${c.label} uploaded in ${c.fillSeconds.toFixed(0)} s`).join(', ')}). A report's cost runs from the Generate call to its row turning \`success\` (the worker polls every ${POLL_MS} ms), the median of ${REPEAT} runs; CPU is the service process's (all threads) less what it spends idle (${(idlePerMs * 1000).toFixed(0)} ms a second)${values.postgres ? ", the database server's not counted" : ''}. The unit (×) is one page of the same customer's transactions, \`GET /aggregation/v3/customers/{id}/transactions\` (25, two years back, a new URL each so the response cache never answers), over ${PAGES} pages: ${unitText}. Per 1,000 transactions divides by the transactions the report covers: a VOA reads 12 months whatever the history holds, a cash-flow report 24. The ratio compares the two years' cost per 1,000 with the one year's (1.00: linear). Reading is one Get Report (JSON) of the finished report.`,
      '',
      '| history | transactions stored | report | transactions covered | wall (× page) | CPU (× page) | per 1,000 covered: wall / CPU | per 1,000, 2 years ÷ 1 year: wall / CPU | reading it: size, wall, CPU |',
      '|---|---|---|---|---|---|---|---|---|',
      ...lines,
    ].join('\n');
    console.log(body);
    if (values.write) writeBenchSection(values.postgres ? 'reports-postgres' : 'reports', `Lending reports${values.postgres ? ' (PostgreSQL)' : ''}`, body);
  } finally {
    await reader.close();
    await stop(service);
    agent.destroy();
    await schema?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
