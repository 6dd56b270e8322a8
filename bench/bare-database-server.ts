/**
 * The database floor of a realistic scenario: the bare server of bench/bare-sampled-server.ts, except that a
 * transaction list is answered the cheapest way it can be from the stored rows: the statement Ledgerlink runs for it
 * (`countedPageQuery`: the page and its count in one index walk), then `JSON.stringify` of the count and the rows,
 * with no framework, authentication, customer check, log line, cache or schema-driven serialiser. Other kinds of
 * request get recorded bytes, as from the bare server. A list asked for in XML is answered in XML, written the
 * cheapest way (an element per column, texts escaped), not through the response schema. Two depths (`BENCH_BARE`):
 * - `database`: through Ledgerlink's own database layer (`selectCountedTransactionPage`: Kysely's executor, the
 *   statement compiled once, rows read as arrays and made objects by a compiled function, named on PostgreSQL);
 * - `driver`: the same SQL straight on the driver, prepared once, rows left as arrays (better-sqlite3's raw mode,
 *   pg's `rowMode: 'array'` with a named statement): what reading the page costs at the least on this stack.
 * What they reach bounds what any server on this stack can reach for pages read from the database per request.
 * Started as a child process by bench/realistic.ts:
 *   node [npm start's flags] --import tsx bench/bare-database-server.ts <samples.json> <sqlite file | postgres URL> <database | driver>
 * It prints `listening on http://127.0.0.1:<port>` when ready.
 */
import fs from 'node:fs';
import http from 'node:http';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { TRANSACTION_RECORD_COLUMNS } from '../src/modules/aggregation/records.js';
import { countedPageQuery, selectCountedTransactionPage } from '../src/modules/aggregation/transactions.repository.js';
import { openDatabase } from '../src/platform/db/database.js';
import { escapeXml } from '../src/contract/xml/serialize.js';
import { requestKind, type Sample } from './lib/samples.js';

const [file, store, depth] = process.argv.slice(2);
if (!file || !store || (depth !== 'database' && depth !== 'driver')) {
  throw new Error('usage: bare-database-server.ts <samples.json> <sqlite file | postgres URL> <database | driver>');
}
const samples = JSON.parse(fs.readFileSync(file, 'utf8')) as Sample[];
const postgres = /^postgres(ql)?:/.test(store);
// Ledgerlink's database layer: what `database` reads through, and what compiles the SQL for `driver`.
const database = openDatabase(postgres ? { databaseUrl: store } : { sqliteFile: store });
const closing: (() => Promise<void>)[] = [() => database.close()];

interface Page {
  xml: boolean;
  customerId: number;
  fromDate: number;
  toDate: number;
  limit: number;
  offset: number;
}

/** The counted page through Ledgerlink's database layer: rows as objects, the count on each. */
async function throughLayer(p: Page): Promise<string> {
  const { found, rows } = await selectCountedTransactionPage(
    database.kysely,
    { column: 'customer_id', id: p.customerId },
    { fromDate: p.fromDate, toDate: p.toDate, includePending: false, sort: 'desc', limit: p.limit },
    p.offset,
  );
  if (!p.xml) return JSON.stringify({ found, displaying: rows.length, transactions: rows });
  let out = `${XML_HEAD}<found>${found}</found><displaying>${rows.length}</displaying>`;
  for (const row of rows) {
    out += '<transaction>';
    for (const [key, value] of Object.entries(row)) out += element(key, value);
    out += '</transaction>';
  }
  return `${out}</transactions>`;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><transactions>';
const element = (name: string, value: unknown) =>
  value === null || value === undefined ? `<${name}/>` : `<${name}>${typeof value === 'string' ? escapeXml(value) : String(value)}</${name}>`;

/** The same SQL on the driver: compiled once with markers in place of the values, which then go where they were. */
function onDriver(): (p: Page) => Promise<string> {
  const marks = Array.from({ length: 8 }, (_, i) => `\u0000page-${i}\u0000`) as unknown as number[];
  const query = countedPageQuery(
    database.kysely,
    { column: 'customer_id', id: marks[0]! },
    { fromDate: marks[1]!, toDate: marks[2]!, includePending: false, sort: 'desc', limit: marks[3]! },
    marks[4]!,
    { column: 'customer_id', id: marks[5]! },
    { fromDate: marks[6]!, toDate: marks[7]!, includePending: false },
  ).compile();
  const at = query.parameters.map((v) => (marks as unknown[]).indexOf(v));
  for (let i = 0; i < marks.length; i++) {
    if (at.filter((k) => k === i).length !== 1) throw new Error(`value ${i} must appear exactly once in: ${query.sql}`);
  }
  const values = (p: Page) => {
    const given = [p.customerId, p.fromDate, p.toDate, p.limit, p.offset, p.customerId, p.fromDate, p.toDate];
    return at.map((i, k) => (i >= 0 ? given[i] : query.parameters[k]));
  };
  // (A page past the end has no row to carry the count; the benchmark asks for none.)
  const names = [...TRANSACTION_RECORD_COLUMNS];
  const answer = (rows: unknown[][], xml: boolean) => {
    const found = Number(rows[0]?.at(-1) ?? 0);
    if (!xml) return JSON.stringify({ found, displaying: rows.length, transactions: rows });
    let out = `${XML_HEAD}<found>${found}</found><displaying>${rows.length}</displaying>`;
    for (const row of rows) {
      out += '<transaction>';
      for (let i = 0; i < names.length; i++) out += element(names[i]!, row[i]);
      out += '</transaction>';
    }
    return `${out}</transactions>`;
  };
  if (postgres) {
    const pool = new pg.Pool({ connectionString: store, max: 10 });
    closing.push(() => pool.end());
    return async (p) => answer((await pool.query<unknown[]>({ name: 'floor-page', text: query.sql, values: values(p), rowMode: 'array' })).rows, p.xml);
  }
  const file = new SQLite(store, { readonly: true });
  closing.push(async () => void file.close());
  const statement = file.prepare(query.sql).raw(true);
  return async (p) => answer(statement.all(values(p)) as unknown[][], p.xml);
}
const readPage = depth === 'driver' ? onDriver() : throughLayer;

interface Recorded {
  status: number;
  contentType: string;
  body: Buffer;
}
const byUrl = new Map<string, Recorded>();
const recorded = new Map<string, Recorded[]>();
for (const s of samples) {
  const a = { status: s.status, contentType: s.contentType, body: Buffer.from(s.body, 'base64') };
  byUrl.set(`${s.kind} ${s.url}`, a);
  const list = recorded.get(s.kind) ?? [];
  list.push(a);
  recorded.set(s.kind, list);
}
const turn = new Map<string, number>();

const TRANSACTIONS = /^\/aggregation\/v3\/customers\/(\d+)\/transactions\?/;

async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const page = TRANSACTIONS.exec(url);
  if (page) {
    const q = new URLSearchParams(url.slice(url.indexOf('?') + 1));
    const xml = /xml/i.test(req.headers.accept ?? '');
    const body = await readPage({
      xml,
      customerId: Number(page[1]),
      fromDate: Number(q.get('fromDate')),
      toDate: Number(q.get('toDate')),
      limit: Number(q.get('limit') ?? 25),
      offset: Number(q.get('start') ?? 1) - 1,
    });
    res.writeHead(200, { 'content-type': xml ? 'application/xml; charset=utf-8' : 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  const kind = requestKind(req.method ?? 'GET', url, req.headers.accept);
  const list = recorded.get(kind);
  if (!list) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('no such kind\n');
    return;
  }
  const i = turn.get(kind) ?? 0;
  turn.set(kind, (i + 1) % list.length);
  const a = byUrl.get(`${kind} ${url}`) ?? list[i]!;
  res.writeHead(a.status, { 'content-type': a.contentType, 'content-length': a.body.length });
  res.end(a.body);
}

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    answer(req, res).catch((e: Error) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`${e.message}\n`);
    });
  });
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => void Promise.allSettled(closing.map((close) => close())).then(() => process.exit(0))));
