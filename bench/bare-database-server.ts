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
import { escapeXml } from '../src/contract/xml/serialize.js';
import { TRANSACTION_RECORD_COLUMNS } from '../src/modules/aggregation/records.js';
import { countedPageQuery, selectCountedTransactionPage } from '../src/modules/aggregation/transactions.repository.js';
import { openDatabase } from '../src/platform/db/database.js';
import { compileWithPlaceholders } from '../src/platform/db/prepared.js';
import { answerPicker, type Sample } from './lib/samples.js';

const [file, store, depth] = process.argv.slice(2);
if (!file || !store || (depth !== 'database' && depth !== 'driver')) {
  throw new Error('usage: bare-database-server.ts <samples.json> <sqlite file | postgres URL> <database | driver>');
}
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

const COLUMNS = [...TRANSACTION_RECORD_COLUMNS];
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><transactions>';
const element = (name: string, value: unknown) =>
  value === null || value === undefined ? `<${name}/>` : `<${name}>${typeof value === 'string' ? escapeXml(value) : String(value)}</${name}>`;

/** The page as JSON (the rows as they are), or as XML written the cheapest way: an element per column. */
function render<Row>(p: Page, found: number, rows: Row[], cell: (row: Row, column: number) => unknown): string {
  if (!p.xml) return JSON.stringify({ found, displaying: rows.length, transactions: rows });
  let out = `${XML_HEAD}<found>${found}</found><displaying>${rows.length}</displaying>`;
  for (const row of rows) {
    out += '<transaction>';
    for (let i = 0; i < COLUMNS.length; i++) out += element(COLUMNS[i]!, cell(row, i));
    out += '</transaction>';
  }
  return `${out}</transactions>`;
}

/** The counted page through Ledgerlink's database layer: rows as objects, the count on each. */
async function throughLayer(p: Page): Promise<string> {
  const { found, rows } = await selectCountedTransactionPage(
    database.kysely,
    { column: 'customer_id', id: p.customerId },
    { fromDate: p.fromDate, toDate: p.toDate, includePending: false, sort: 'desc', limit: p.limit },
    p.offset,
  );
  return render(p, found, rows, (row, i) => row[COLUMNS[i]!]);
}

/** The same SQL on the driver, compiled once as preparedQuery compiles it; rows stay arrays, the count last. */
function onDriver(): (p: Page) => Promise<string> {
  const { query, bind } = compileWithPlaceholders(database.kysely, 8, (db, id, fromDate, toDate, limit, offset, countId, countFrom, countTo) =>
    countedPageQuery(
      db,
      { column: 'customer_id', id },
      { fromDate, toDate, includePending: false, sort: 'desc', limit },
      offset,
      { column: 'customer_id', id: countId },
      { fromDate: countFrom, toDate: countTo, includePending: false },
    ),
  );
  const values = (p: Page) => bind([p.customerId, p.fromDate, p.toDate, p.limit, p.offset, p.customerId, p.fromDate, p.toDate]);
  // (A page past the end has no row to carry the count; the benchmark asks for none.)
  const answer = (p: Page, rows: unknown[][]) => render(p, Number(rows[0]?.at(-1) ?? 0), rows, (row, i) => row[i]);
  if (postgres) {
    const pool = new pg.Pool({ connectionString: store, max: 10 });
    closing.push(() => pool.end());
    return async (p) => answer(p, (await pool.query<unknown[]>({ name: 'floor-page', text: query.sql, values: values(p), rowMode: 'array' })).rows);
  }
  const sqlite = new SQLite(store, { readonly: true });
  closing.push(async () => void sqlite.close());
  const statement = sqlite.prepare(query.sql).raw(true);
  return async (p) => answer(p, statement.all(values(p)) as unknown[][]);
}
const readPage = depth === 'driver' ? onDriver() : throughLayer;

const pick = answerPicker(JSON.parse(fs.readFileSync(file, 'utf8')) as Sample[], (s) => ({
  status: s.status,
  contentType: s.contentType,
  body: Buffer.from(s.body, 'base64'),
}));

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
  const a = pick(req.method ?? 'GET', url, req.headers.accept);
  if (!a) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('no such kind\n');
    return;
  }
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
