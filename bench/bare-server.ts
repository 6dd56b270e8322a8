/**
 * The physical limit: a bare node:http server that answers every request with fixed bytes (the exact status,
 * content type and body Ledgerlink gave for the same request). Started as a child process by bench/http.ts:
 *   node --import tsx bench/bare-server.ts <response.json>
 * It prints `listening on http://127.0.0.1:<port>` when ready.
 */
import fs from 'node:fs';
import http from 'node:http';

const file = process.argv[2];
if (!file) throw new Error('usage: bare-server.ts <response.json>');
const response = JSON.parse(fs.readFileSync(file, 'utf8')) as { status: number; contentType: string; body: string };
const body = Buffer.from(response.body, 'base64');
const headers = { 'content-type': response.contentType, 'content-length': String(body.length) };

const server = http.createServer((req, res) => {
  // Read (and drop) the request body like a real server has to before answering.
  req.resume();
  req.on('end', () => {
    res.writeHead(response.status, headers);
    res.end(body);
  });
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
