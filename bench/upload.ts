/**
 * Statement uploads: how fast a file of each format is read and stored, what it costs in CPU, and what it costs
 * other requests.
 *
 *   npx tsx bench/upload.ts [--postgres] [--sizes 1,10] [--formats ofx1,ofx2,qfx,csv,qif,mt940,camt] [--write]
 *
 * For each format and size, one upload through the API of a service (from dist/, as npm start runs it) on a file
 * database (SQLite, or PostgreSQL with --postgres) to a fresh customer, while a second client asks GET /health one
 * request after another; then the same probes with nothing else running. Reported: MB per second of the upload
 * (request sent to answer received), CPU per MB (the whole process, its reader threads included), the worst /health
 * latency during the upload as a multiple of the worst idle one, and as the floor the same bytes through the bare
 * parser alone in the same run (the best of eight passes in this process):
 *
 *   OFX 1.x, QFX, OFX 2.x  the project's OFX markup parser (parseOfxDocument), which the reader runs on both syntaxes
 *   CSV                    csv-parse
 *   camt.053               fast-xml-parser with the camt reader's options, without its well-formedness pass
 *   QIF, MT940             the split into lines (text.split(/\r?\n/)) and of each line into its field code and value
 *
 * and, as the floor of storing, the transactions the upload stored inserted again by bare statements into the same
 * tables in the upload's slices, an event row each, each slice committed (bench/lib/store-floor.ts), once the idle
 * probes are done; the last ratio is the upload's time over the bare parser's and the bare store's together.
 *
 * Files: about the size asked (under the 10 MB, 100,000-row and 200-account limits) of accounts whose transactions
 * run forward a few a day over a year, from test/helpers/statement-files.ts; US dollars for OFX, QFX, CSV and QIF,
 * euros for MT940 and camt.053. An upload that is not answered 200 with every transaction of the file stored (the
 * answer's count, the file's own count and the transactions listed for the customer) stops the run. Before the
 * measured uploads, a small file of each format is uploaded once and parsed, so that the first row does not carry the
 * first use of a reader or parser.
 * --write puts the table into docs/benchmarks.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import { CAMT_XML_OPTIONS } from '../src/connectors/statements/camt-xml.js';
import { parseOfxDocument } from '../src/connectors/ofx/markup.js';
import {
  camt053LedgerFile,
  csvLedgerFile,
  type LedgerAccount,
  ledgerSize,
  mt940LedgerFile,
  ofx1LedgerFile,
  ofx2LedgerFile,
  qfxLedgerFile,
  qifLedgerFile,
  statementLedger,
} from '../test/helpers/statement-files.js';
import { cpuMs, createPartner, startLedgerlink, stop } from './lib/process.js';
import { timedRequest } from './lib/timed-request.js';
import { machineLine, writeBenchSection } from './lib/report.js';
import { createPgSchema } from './lib/store.js';
import { pgStoreFloor, sqliteStoreFloor } from './lib/store-floor.js';

const MB = 1024 * 1024;
const FINBANK = 101732;
/** The route's body limit and the readers' row and account limits (docs/connectors.md, "Limits and codes"). */
const MAX_BYTES = 10 * MB;
const MAX_ROWS = 100_000;
const MAX_ACCOUNTS = 200;

/** The camt reader's parser, for its floor. */
const camtParser = new XMLParser(CAMT_XML_OPTIONS);

/** Lines and each line's field code and value: what a reader of a line format does before anything else. */
function splitFields(text: string, field: (line: string) => number): number {
  let n = 0;
  for (const line of text.split(/\r?\n/)) n += field(line);
  return n;
}
const qifField = (line: string) => line.charCodeAt(0) + line.slice(1).length;
const mt940Field = (line: string) => {
  const end = line.startsWith(':') ? line.indexOf(':', 1) : -1;
  return end === -1 ? line.length : line.slice(1, end).length + line.slice(end + 1).length;
};

interface Format {
  label: string;
  contentType: string;
  /** The format the answer names. */
  answered: string;
  currency: 'USD' | 'EUR';
  write(accounts: LedgerAccount[]): string;
  /** Transactions the file holds, counted in its text. */
  count(text: string): number;
  bare(text: string): unknown;
}

const occurrences = (text: string, what: string) => text.split(what).length - 1;
const ofxCount = (text: string) => occurrences(text, '<STMTTRN>');

/** The formats measured, in the order of the table. */
const FORMATS: Record<string, Format> = {
  ofx1: {
    label: 'OFX 1.x',
    contentType: 'application/x-ofx',
    answered: 'ofx',
    currency: 'USD',
    write: ofx1LedgerFile,
    count: ofxCount,
    bare: parseOfxDocument,
  },
  ofx2: {
    label: 'OFX 2.x',
    contentType: 'application/x-ofx',
    answered: 'ofx',
    currency: 'USD',
    write: ofx2LedgerFile,
    count: ofxCount,
    bare: parseOfxDocument,
  },
  qfx: {
    label: 'QFX',
    contentType: 'application/vnd.intu.qfx',
    answered: 'ofx',
    currency: 'USD',
    write: qfxLedgerFile,
    count: ofxCount,
    bare: parseOfxDocument,
  },
  csv: {
    label: 'CSV',
    contentType: 'text/csv',
    answered: 'csv',
    currency: 'USD',
    write: csvLedgerFile,
    count: (text) => text.split('\n').filter((l) => l.trim() !== '').length - 1,
    bare: (text) => parseCsv(text, { relax_column_count: true }),
  },
  qif: {
    label: 'QIF',
    contentType: 'application/qif',
    answered: 'qif',
    currency: 'USD',
    write: qifLedgerFile,
    // Every record ends with ^: the accounts' own records are not transactions.
    count: (text) => occurrences(text, '\n^\r\n') - occurrences(text, '!Account\r\n'),
    bare: (text) => splitFields(text, qifField),
  },
  mt940: {
    label: 'MT940',
    contentType: 'application/x-mt940',
    answered: 'mt940',
    currency: 'EUR',
    write: mt940LedgerFile,
    count: (text) => occurrences(text, '\n:61:'),
    bare: (text) => splitFields(text, mt940Field),
  },
  camt: {
    label: 'camt.053',
    contentType: 'application/x-camt+xml',
    answered: 'camt',
    currency: 'EUR',
    write: camt053LedgerFile,
    count: (text) => occurrences(text, '<Ntry>'),
    bare: (text) => camtParser.parse(text),
  },
};

const { values } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    sizes: { type: 'string', default: '1,10' },
    formats: { type: 'string', default: Object.keys(FORMATS).join(',') },
    write: { type: 'boolean', default: false },
  },
});

/**
 * A file of the format of about `mb` MB and the number of transactions it holds: the transactions a sample of it
 * takes per byte give the count, then the file is written, and written again smaller if it came out too large.
 */
function fileOf(format: Format, mb: number): { text: string; transactions: number; accounts: number } {
  const target = Math.min(mb * MB, MAX_BYTES) * 0.98;
  const sample = 3000;
  let transactions = Math.floor((target / Buffer.byteLength(format.write(statementLedger({ transactions: sample, currency: format.currency })))) * sample);
  for (;;) {
    const accounts = statementLedger({ transactions, currency: format.currency });
    const text = format.write(accounts);
    const bytes = Buffer.byteLength(text);
    if (bytes <= target) {
      if (transactions > MAX_ROWS || accounts.length > MAX_ACCOUNTS || ledgerSize(accounts) !== transactions)
        throw new Error(`${format.label} ${mb} MB: ${transactions} transactions in ${accounts.length} accounts, over the limits`);
      return { text, transactions, accounts: accounts.length };
    }
    transactions = Math.floor((transactions * target) / bytes);
  }
}

async function probe(base: string, until: () => boolean, max = Number.POSITIVE_INFINITY): Promise<number[]> {
  const ms: number[] = [];
  while (!until() && ms.length < max) {
    ms.push((await timedRequest(base, '/health')).ms);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return ms;
}

/** Transactions of the small file each format is first uploaded with, before it is measured. */
const WARM_UP_TRANSACTIONS = 500;

/** Passes of the bare parser over a file: it takes several before its code is optimised and its heap has grown. */
const BARE_PASSES = 8;

/** The bare parser's best time over BARE_PASSES passes of the file, in ms. */
function bestParseMs(format: Format, text: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < BARE_PASSES; i++) {
    const t0 = performance.now();
    format.bare(text);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** How many transactions the customer's transaction list finds (all dates up to now, pending ones too). */
async function listedCount(base: string, headers: Record<string, string>, customerId: string): Promise<number> {
  const now = Math.floor(Date.now() / 1000);
  const query = `fromDate=${now - 10 * 365 * 86_400}&toDate=${now}&limit=1&includePending=true`;
  const answer = await timedRequest(base, `/aggregation/v3/customers/${customerId}/transactions?${query}`, { headers });
  if (answer.status !== 200) throw new Error(`listing the transactions: ${answer.status} ${answer.body.slice(0, 300)}`);
  return (JSON.parse(answer.body) as { found: number }).found;
}

async function main(): Promise<void> {
  const sizes = values.sizes.split(',').map(Number);
  const formats = values.formats.split(',').map((f) => f.trim().toLowerCase());
  const unknown = formats.filter((f) => !Object.hasOwn(FORMATS, f));
  if (unknown.length > 0) throw new Error(`unknown format ${unknown.join(', ')}: --formats takes ${Object.keys(FORMATS).join(',')}`);
  if (sizes.some((mb) => !(mb > 0) || mb > 10)) throw new Error('--sizes takes sizes in MB from above 0 to 10, the upload limit');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-bench-upload-'));
  const schema = values.postgres ? await createPgSchema() : undefined;
  const env = schema ? { DATABASE_URL: schema.url } : {};
  const creds = createPartner(dir, { databaseUrl: schema?.url });
  const service = await startLedgerlink(dir, env);
  const floor = schema ? pgStoreFloor(schema.url) : sqliteStoreFloor(path.join(dir, 'ledgerlink.sqlite'));
  const base = service.url;
  const pid = service.child.pid!;
  const rows: string[] = [];
  try {
    const auth = await timedRequest(base, '/aggregation/v2/partners/authentication', {
      method: 'POST',
      headers: { 'service-app-key': creds.appKey, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret }),
    });
    const headers = { 'service-app-key': creds.appKey, 'service-app-token': JSON.parse(auth.body).token as string, accept: 'application/json' };

    const newCustomer = async (label: string) => {
      const created = await timedRequest(base, '/aggregation/v2/customers/testing', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ username: `bench-${label}-${Date.now()}`, firstName: 'Bench', lastName: 'Upload' }),
      });
      return JSON.parse(created.body) as { id: string };
    };

    // A small file of each format first, uploaded and parsed, so that no format's row carries the first use of a reader.
    for (const name of formats) {
      const format = FORMATS[name]!;
      const customer = await newCustomer(`warm-${name}`);
      const small = format.write(statementLedger({ transactions: WARM_UP_TRANSACTIONS, currency: format.currency }));
      const answer = await timedRequest(base, `/aggregation/v1/customers/${customer.id}/institutions/${FINBANK}/statements`, {
        method: 'POST',
        headers: { ...headers, 'content-type': format.contentType },
        body: small,
      });
      if (answer.status !== 200) throw new Error(`${format.label}, the warm-up upload: ${answer.status} ${answer.body.slice(0, 300)}`);
      bestParseMs(format, small);
    }
    for (const name of formats) {
      const format = FORMATS[name]!;
      for (const mb of sizes) {
        const file = fileOf(format, mb);
        const inFile = format.count(file.text);
        if (inFile !== file.transactions) throw new Error(`${format.label} ${mb} MB: the file holds ${inFile} transactions, written ${file.transactions}`);
        const size = Buffer.byteLength(file.text) / MB;
        const bareMs = bestParseMs(format, file.text);
        const customer = await newCustomer(`${name}-${mb}`);
        let done = false;
        const cpu0 = cpuMs(pid);
        const upload = timedRequest(base, `/aggregation/v1/customers/${customer.id}/institutions/${FINBANK}/statements`, {
          method: 'POST',
          headers: { ...headers, 'content-type': format.contentType },
          body: file.text,
        }).finally(() => (done = true));
        const loaded = await probe(base, () => done);
        const answer = await upload;
        const cpu = cpuMs(pid) - cpu0;
        // The idle figure: as many requests at the same pace once the upload is over (a second later), so that both
        // worsts are of samples of the same size (the worst of 50 idle ones before it moved between 1.6 and 24 ms).
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const idle = await probe(base, () => false, loaded.length);
        const store = await floor.measure(customer.id);
        const what = `${format.label} ${mb} MB (${file.transactions} transactions in ${file.accounts} accounts)`;
        if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${answer.body.slice(0, 300)}`);
        const result = JSON.parse(answer.body) as { format: string; transactionsAdded: number; transactionsAlreadyPresent: number; accounts: unknown[] };
        const stored = result.transactionsAdded;
        const listed = await listedCount(base, headers, customer.id);
        if (result.format !== format.answered || stored !== file.transactions || result.transactionsAlreadyPresent !== 0 || listed !== file.transactions) {
          throw new Error(
            `${what}: read as ${result.format}, ${stored} added, ${result.transactionsAlreadyPresent} already present, ${listed} listed for the customer`,
          );
        }
        if (result.accounts.length !== file.accounts) throw new Error(`${what}: ${result.accounts.length} accounts stored`);
        if (store.transactions !== file.transactions) throw new Error(`${what}: the store floor copied ${store.transactions} transactions`);
        const cpuMsPerMb = cpu / size;
        const worstIdle = Math.max(...idle);
        const worstLoaded = Math.max(...loaded);
        rows.push(
          `| ${format.label} | ${size.toFixed(1)} | ${stored.toLocaleString('en-US')} | ${(size / (answer.ms / 1000)).toFixed(2)} | ${cpuMsPerMb.toFixed(0)} | ${(size / (bareMs / 1000)).toFixed(1)} | ${(answer.ms / bareMs).toFixed(1)}x | ${(size / (store.ms / 1000)).toFixed(1)} | ${(answer.ms / (bareMs + store.ms)).toFixed(1)}x | ${worstIdle.toFixed(1)} / ${worstLoaded.toFixed(1)} ms (${(worstLoaded / worstIdle).toFixed(1)}x) |`,
        );
        process.stderr.write(`${rows.at(-1)}\n`);
      }
    }
  } finally {
    await floor.close();
    await stop(service);
    await schema?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const body = [
    `${machineLine()}; ${values.postgres ? 'PostgreSQL' : 'SQLite (file)'}; ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. One upload at a time through the API, a fresh customer each, after a small file of every format was uploaded and parsed; the bare parser's best of eight passes; the bare store: the transactions the upload stored, inserted again by bare statements in its slices of 50 with an event each (bench/lib/store-floor.ts); \`/health\` asked one request after another (20 ms apart) during the upload and, for the idle figure, as many times once it was over.`,
    '',
    '| format | MB | transactions stored | upload MB/s | CPU ms per MB (all threads) | bare parser MB/s | upload ÷ bare parse time | bare store MB/s | upload ÷ (bare parse + bare store) | worst /health idle / during (ratio) |',
    '|---|---|---|---|---|---|---|---|---|---|',
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
