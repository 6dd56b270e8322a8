import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { loadConfig } from '../../config.js';
import { registerSandboxListener, removeSandboxListener, renewSandboxListener, LISTENER_LEASE_SECONDS } from '../../../outbox/listeners.js';
import { VERIFICATION_PARAMETER } from '../../../modules/txpush/verify.service.js';
import { epochSeconds } from '../../../platform/clock.js';
import { openRuntime, type Runtime } from '../../runtime.js';
import { parse, positiveInteger, UsageError } from '../args.js';
import { sandboxPartner } from '../sandbox-partner.js';
import { oneLine, print } from '../../../platform/terminal-text.js';

const USAGE = 'ledgerlink listen [--forward-to URL] [--port N] [--host 127.0.0.1] [--partner ID] [--data DIR]';

/** The largest delivery body listen accepts (deliveries are far smaller). */
const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** How long a forward may take before it counts as failed. */
const FORWARD_TIMEOUT_MS = 10_000;
/** Request headers not passed on to the forward target: they describe this hop, not the delivery. */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'expect',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
]);

const xml = new XMLParser({ parseTagValue: false, ignoreAttributes: true });

type Json = Record<string, any>;

/** What a delivery is, in a few words: kind, event type, and the ids it names. */
export function describeDelivery(body: string, contentType: string | undefined): { kind: string; type: string; ids: string } {
  let doc: Json | undefined;
  try {
    doc = (contentType ?? '').includes('xml') ? (xml.parse(body) as Json) : (JSON.parse(body) as Json);
  } catch {
    doc = undefined;
  }
  if (doc?.event && typeof doc.event === 'object') {
    const e = doc.event as Json;
    const records: Json[] = Array.isArray(e.records) ? e.records : e.records ? (Object.values(e.records as Json).flat() as Json[]) : [];
    const recordIds = records.map((r) => String(r?.id ?? '?'));
    const account = records[0]?.accountId ?? (e.class === 'account' ? records[0]?.id : undefined);
    const ids = [
      account !== undefined ? `account ${account}` : '',
      e.class === 'transaction'
        ? `transaction${recordIds.length === 1 ? '' : 's'} ${recordIds.slice(0, 5).join(',')}${recordIds.length > 5 ? `,… (${recordIds.length})` : ''}`
        : '',
    ]
      .filter(Boolean)
      .join('  ');
    return { kind: 'txpush', type: `${e.class}.${e.type}`, ids };
  }
  const w = (doc?.webhook ?? doc) as Json | undefined;
  if (w && typeof w.eventType === 'string') return { kind: 'webhook', type: `connect.${w.eventType}`, ids: `customer ${w.customerId ?? '?'}` };
  return { kind: 'unknown', type: '-', ids: `${Buffer.byteLength(body)} bytes` };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('body too large'));
        req.destroy();
      } else {
        chunks.push(c);
      }
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function forwardHeaders(req: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function checkForwardUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--forward-to "${value}" is not a URL`, 'give a full URL, e.g. --forward-to http://localhost:3000/webhooks');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--forward-to must be an http or https URL (got ${url.protocol})`, 'e.g. --forward-to http://localhost:3000/webhooks');
  return url.toString();
}

function out(line: string): void {
  print(line);
}

/**
 * `ledgerlink listen`: a local receiver for the partner's TxPUSH notifications and Connect webhooks. It answers the
 * TxPUSH verification handshake itself, prints each delivery on a line, and forwards it (same body, content type
 * and signature headers) to --forward-to, answering the delivery with the forward's status. With --partner it
 * registers itself on the data store, so every push and webhook of that partner is also queued to it.
 */
export async function listen(argv: string[]): Promise<void> {
  const { values } = parse(
    argv,
    {
      'forward-to': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      partner: { type: 'string' },
      data: { type: 'string' },
    },
    USAGE,
  );
  const forwardTo = checkForwardUrl(values['forward-to']);
  const port = values.port === '0' ? 0 : (positiveInteger('--port', values.port, USAGE) ?? 0);
  if (port > 65535) throw new UsageError(`--port must be at most 65535 (got ${port})`, `usage: ${USAGE}`);

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      out(`${new Date().toISOString()}  error  ${oneLine((e as Error).message)}`);
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
      res.end();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://listen');
    const code = url.searchParams.get(VERIFICATION_PARAMETER);
    if (req.method === 'GET' && code !== null) {
      out(`${new Date().toISOString()}  txpush   verification  answered the handshake for ${oneLine(url.pathname)}`);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(code);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { 'content-type': 'text/plain', allow: 'POST' });
      res.end('listen receives POSTed deliveries and TxPUSH verification requests\n');
      return;
    }
    const body = await readBody(req);
    const contentType = req.headers['content-type'];
    const what = describeDelivery(body, contentType);
    // Anyone who can reach the port can send these, body and headers alike.
    const eventId = oneLine(String(req.headers['webhook-id'] ?? '-'));
    out(`${new Date().toISOString()}  ${what.kind.padEnd(7)}  ${oneLine(what.type)}  ${eventId}${what.ids ? `  ${oneLine(what.ids)}` : ''}`);
    if (!forwardTo) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    const started = Date.now();
    try {
      const answer = await fetch(forwardTo, {
        method: 'POST',
        headers: forwardHeaders(req),
        body,
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
        redirect: 'manual',
      });
      const text = await answer.text();
      out(`    → ${forwardTo}  ${answer.status}  ${Date.now() - started} ms`);
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
      res.end(text);
    } catch (e) {
      const cause = (e as Error & { cause?: Error }).cause?.message ?? (e as Error).message;
      out(`    → ${forwardTo}  failed: ${oneLine(cause)}`);
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`forwarding failed: ${cause}`);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, values.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const ownUrl = `http://${host}:${address.port}/`;

  let runtime: Runtime | undefined;
  let registration: number | undefined;
  let renew: NodeJS.Timeout | undefined;
  const stop = async () => {
    if (renew) clearInterval(renew);
    if (runtime) {
      if (registration !== undefined) await removeSandboxListener(runtime.database.kysely, registration).catch(() => undefined);
      await runtime.database.close();
    }
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  if (values.partner !== undefined) {
    try {
      runtime = await openRuntime(loadConfig(process.env, { data: values.data }));
      if (runtime.config.mode !== 'sandbox')
        throw new UsageError('listen --partner works on a sandbox-mode store only', 'production mode refuses loopback delivery targets');
      const caller = await sandboxPartner(runtime.database.kysely, values.partner, USAGE);
      registration = await registerSandboxListener(runtime.database.kysely, caller.partnerId, ownUrl, epochSeconds(runtime.clock));
      const rt = runtime;
      renew = setInterval(
        () => {
          void renewSandboxListener(rt.database.kysely, registration!, epochSeconds(rt.clock)).catch((e: unknown) =>
            out(`could not renew the registration: ${oneLine((e as Error).message)}`),
          );
        },
        (LISTENER_LEASE_SECONDS / 3) * 1000,
      );
    } catch (e) {
      await stop();
      throw e;
    }
  }

  // One write, so whoever reads the output (a script waiting for the URL) gets the whole banner at once.
  out(
    [
      `listen: listening on ${ownUrl}`,
      values.partner !== undefined
        ? `Receiving every TxPUSH notification and Connect webhook of partner ${values.partner} (registered on the data store until listen stops).`
        : `Subscribe this URL as a TxPUSH callbackUrl or use it as a Connect webhook; the verification handshake is answered here.`,
      forwardTo ? `Forwarding each delivery to ${forwardTo}. Ctrl-C stops.` : 'Printing each delivery (no --forward-to). Ctrl-C stops.',
    ].join('\n'),
  );

  await new Promise<void>((resolve) => {
    const onSignal = () => {
      void stop().finally(resolve);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}
