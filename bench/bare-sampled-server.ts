/**
 * The physical limit of a realistic scenario: a bare node:http server answering every request with bytes Ledgerlink
 * gave for a request of the same kind (bench/lib/samples.ts): the recorded answer of the very same URL when there
 * is one (institution searches: every word is recorded), otherwise the recorded answers of the kind in turn (other
 * customers and pages of the same list). Same status, content type and body; no database, no logic.
 * Started as a child process by bench/realistic.ts:
 *   node --import tsx bench/bare-sampled-server.ts <samples.json>
 * It prints `listening on http://127.0.0.1:<port>` when ready.
 */
import fs from 'node:fs';
import http from 'node:http';
import { answerPicker, type Sample } from './lib/samples.js';

const file = process.argv[2];
if (!file) throw new Error('usage: bare-sampled-server.ts <samples.json>');

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}
const pick = answerPicker(JSON.parse(fs.readFileSync(file, 'utf8')) as Sample[], (s): Answer => {
  const body = Buffer.from(s.body, 'base64');
  return { status: s.status, headers: { 'content-type': s.contentType, 'content-length': String(body.length) }, body };
});
const unknown: Answer = { status: 404, headers: { 'content-type': 'text/plain', 'content-length': '13' }, body: Buffer.from('no such kind\n') };

const server = http.createServer((req, res) => {
  const a = pick(req.method ?? 'GET', req.url ?? '/', req.headers.accept) ?? unknown;
  // Read (and drop) the request body like a real server has to before answering.
  req.resume();
  req.on('end', () => {
    res.writeHead(a.status, a.headers);
    res.end(a.body);
  });
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
