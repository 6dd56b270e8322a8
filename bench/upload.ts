/**
 * Statement uploads: how fast a file is read and stored, what it costs in CPU, and what it costs other requests.
 *
 *   npx tsx bench/upload.ts [--postgres] [--sizes 1,10] [--write]
 *
 * For each format and size, one upload through the API of a service (from dist/, as npm start runs it) on a file
 * database (SQLite, or PostgreSQL with --postgres) to a fresh customer, while a second client asks GET /health one request after another; then the same
 * probes with nothing else running. Reported: MB per second of the upload (request sent to answer received), CPU
 * per MB (the whole process, its reader threads included), the worst /health latency during the upload as a
 * multiple of the worst idle one, and as the floor the same bytes through the bare parser alone (csv-parse,
 * the OFX markup parser) in the same run. --write puts the table into docs/benchmarks.md.
 */
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseCsv } from 'csv-parse/sync';
import { execFileSync } from 'node:child_process';
import { parseOfxDocument } from '../src/connectors/ofx/markup.js';
import { csvStatementFile, ofxDay, ofxStatementFile } from '../test/helpers/statement-files.js';
import { ROOT, startLedgerlink, stop } from './lib/process.js';
import { machineLine, writeBenchSection } from './lib/report.js';
import { createPgSchema } from './lib/store.js';

const { values } = parseArgs({
  options: { postgres: { type: 'boolean', default: false }, sizes: { type: 'string', default: '1,10' }, write: { type: 'boolean', default: false } },
});
const MB = 1024 * 1024;
const FINBANK = 101732;

/** A file of about `mb` MB of the format, with realistic rows (descriptions of bank-export length). */
function fileOf(format: 'csv' | 'ofx', mb: number): string {
  // Under the 10 MB and 100,000-row limits: longer rows for larger files.
  const bytes = mb * MB * 0.98;
  const rowBytes = Math.max(48, Math.ceil(bytes / 99_000));
  if (format === 'csv') return csvStatementFile(Math.floor(bytes / (rowBytes + 1)), rowBytes);
  const perAccount = 200;
  const accounts = Math.max(1, Math.min(200, Math.floor(bytes / (perAccount * 120))));
  return ofxStatementFile(
    Array.from({ length: accounts }, (_, a) => ({
      acctId: `8${String(a).padStart(9, '0')}`,
      transactions: Array.from({ length: perAccount }, (_, t) => ({
        fitId: `F${a}-${t}`,
        date: ofxDay(t % 360),
        amount: -(t + 1) / 4,
        name: `PAYEE ${t} OF ACCOUNT ${a}`,
      })),
    })),
  );
}

function bareParse(format: 'csv' | 'ofx', text: string): void {
  if (format === 'csv') parseCsv(text, { relax_column_count: true });
  else parseOfxDocument(text);
}

function request(base: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; ms: number; body: string }>((resolve, reject) => {
    const start = performance.now();
    const req = http.request(`${base}${path}`, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - start, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

async function probe(base: string, until: () => boolean, max = Number.POSITIVE_INFINITY): Promise<number[]> {
  const ms: number[] = [];
  while (!until() && ms.length < max) {
    ms.push((await request(base, '/health')).ms);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return ms;
}

/** CPU time of a process so far, all its threads, in ms (Linux: /proc/PID/stat, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-bench-upload-'));
  const schema = values.postgres ? await createPgSchema() : undefined;
  const env = schema ? { DATABASE_URL: schema.url } : {};
  const creds = JSON.parse(
    execFileSync(process.execPath, ['dist/bundle/ledgerlink.js', 'partner', 'create', '--json', '--data', dir], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', ...env },
    }).toString(),
  ) as { partnerId: string; partnerSecret: string; appKey: string };
  const service = await startLedgerlink(dir, env);
  const base = service.url;
  const pid = service.child.pid!;
  const auth = await request(base, '/aggregation/v2/partners/authentication', {
    method: 'POST',
    headers: { 'service-app-key': creds.appKey, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret }),
  });
  const headers = { 'service-app-key': creds.appKey, 'service-app-token': JSON.parse(auth.body).token as string, accept: 'application/json' };

  const rows: string[] = [];
  const sizes = values.sizes.split(',').map(Number);
  for (const format of ['csv', 'ofx'] as const) {
    for (const mb of sizes) {
      const file = fileOf(format, mb);
      const size = Buffer.byteLength(file) / MB;
      const t0 = performance.now();
      bareParse(format, file);
      const bareMs = performance.now() - t0;
      const created = await request(base, '/aggregation/v2/customers/testing', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ username: `bench-${format}-${mb}-${Date.now()}`, firstName: 'Bench', lastName: 'Upload' }),
      });
      const customer = JSON.parse(created.body) as { id: string };
      const idle = await probe(base, () => false, 50);
      let done = false;
      const cpu0 = cpuMs(pid);
      const upload = request(base, `/aggregation/v1/customers/${customer.id}/institutions/${FINBANK}/statements`, {
        method: 'POST',
        headers: { ...headers, 'content-type': format === 'csv' ? 'text/csv' : 'application/x-ofx' },
        body: file,
      }).finally(() => (done = true));
      const loaded = await probe(base, () => done);
      const answer = await upload;
      const cpu = cpuMs(pid) - cpu0;
      if (answer.status !== 200) throw new Error(`${format} ${mb} MB: ${answer.status} ${answer.body.slice(0, 300)}`);
      const stored = JSON.parse(answer.body).transactionsAdded as number;
      const cpuMsPerMb = cpu / size;
      const worstIdle = Math.max(...idle);
      const worstLoaded = Math.max(...loaded);
      rows.push(
        `| ${format.toUpperCase()} | ${size.toFixed(1)} | ${stored.toLocaleString('en-US')} | ${(size / (answer.ms / 1000)).toFixed(2)} | ${cpuMsPerMb.toFixed(0)} | ${(size / (bareMs / 1000)).toFixed(1)} | ${(answer.ms / bareMs).toFixed(1)}x | ${worstIdle.toFixed(1)} / ${worstLoaded.toFixed(1)} ms (${(worstLoaded / worstIdle).toFixed(1)}x) |`,
      );
      process.stderr.write(`${rows.at(-1)}\n`);
    }
  }
  await stop(service);
  await schema?.drop();
  fs.rmSync(dir, { recursive: true, force: true });

  const body = [
    `${machineLine()}; ${values.postgres ? 'PostgreSQL' : 'SQLite (file)'}; ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. One upload at a time through the API, a fresh customer each; \`/health\` asked one request after another (20 ms apart) during the upload and, for the idle figure, 50 times before it.`,
    '',
    '| format | MB | transactions stored | upload MB/s | CPU ms per MB (all threads) | bare parser MB/s | upload ÷ bare parse time | worst /health idle / during (ratio) |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  console.log(body);
  if (values.write)
    writeBenchSection(values.postgres ? 'upload-postgres' : 'upload-sqlite', `Statement uploads (${values.postgres ? 'PostgreSQL' : 'SQLite'})`, body);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
