/**
 * The framework floor: a Fastify 5 server with no plugins and no hooks, answering every request with fixed bytes
 * (the exact status, content type and body Ledgerlink gave for the same request). What any Fastify service can at
 * best do on this machine, before authentication, database and serialisation. Started by bench/http.ts:
 *   node --import tsx bench/fastify-floor.ts <response.json>
 * It prints `listening on http://127.0.0.1:<port>` when ready.
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const file = process.argv[2];
if (!file) throw new Error('usage: fastify-floor.ts <response.json>');
const response = JSON.parse(fs.readFileSync(file, 'utf8')) as { status: number; contentType: string; body: string };
const body = Buffer.from(response.body, 'base64');

const app = Fastify({ logger: false, keepAliveTimeout: 72_000 });
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, payload, done) => done(null, payload));
app.all('/*', (_request, reply) => {
  reply.code(response.status).header('content-type', response.contentType).send(body);
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening on ${url}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
