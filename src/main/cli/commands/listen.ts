import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Static } from 'typebox';
import type { CliListener, CliOutcomeRecorded, CliPolled } from '../../../contract/schemas/cli.js';
import { registerSandboxListener, removeSandboxListener, renewSandboxListener, LISTENER_LEASE_SECONDS } from '../../../outbox/listeners.js';
import { VERIFICATION_PARAMETER } from '../../../modules/txpush/verify.service.js';
import { epochSeconds } from '../../../platform/clock.js';
import type { Runtime } from '../../runtime.js';
import { parse, positiveInteger, UsageError } from '../args.js';
import { ServiceAnswer, type ServiceClient } from '../client.js';
import { checkPartnerOption, chooseTarget, type Target } from '../mode.js';
import { sandboxPartner } from '../sandbox-partner.js';
import { clientOptions, hasClientFlags } from '../settings.js';
import { openStore } from '../store.js';
import { oneLine, print } from '../../../platform/terminal-text.js';

const USAGE =
  'ledgerlink listen [--forward-to URL] [--port N] [--host 127.0.0.1] [--partner ID] [--local]  [--url URL --app-key KEY --partner-id ID | --profile NAME | --data DIR]';

/** The largest delivery body listen accepts (deliveries are far smaller). */
const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** How long a forward may take before it counts as failed. */
const FORWARD_TIMEOUT_MS = 10_000;
/** How long one poll of the service waits for a delivery (the service holds it open at most 25 s). */
const POLL_WAIT_SECONDS = 25;
/** Waits after a failed poll before the next: the service may be restarting. */
const RETRY_DELAYS_MS = [1000, 2000, 5000, 10_000];
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

/** What became of a forward: the target's status and answer, or why there was none. */
interface Forwarded {
  statusCode: number | null;
  /** null when the target answered 200, the only answer that acknowledges a delivery. */
  error: string | null;
  latencyMs: number;
  text: string;
  contentType: string | null;
}

/** Sends a delivery on to the forward target with its headers and body, and prints how that went. */
async function forward(forwardTo: string, headers: Record<string, string>, body: string): Promise<Forwarded> {
  const started = Date.now();
  try {
    const answer = await fetch(forwardTo, { method: 'POST', headers, body, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS), redirect: 'manual' });
    const text = await answer.text();
    const latencyMs = Date.now() - started;
    out(`    → ${forwardTo}  ${answer.status}  ${latencyMs} ms`);
    const excerpt = text.replace(/\s+/g, ' ').trim().slice(0, 200);
    return {
      statusCode: answer.status,
      error: answer.status === 200 ? null : `HTTP ${answer.status}${excerpt ? `: ${excerpt}` : ''} from ${forwardTo}; the listener must answer 200`,
      latencyMs,
      text,
      contentType: answer.headers.get('content-type'),
    };
  } catch (e) {
    const cause = (e as Error & { cause?: Error }).cause?.message ?? (e as Error).message;
    out(`    → ${forwardTo}  failed: ${oneLine(cause)}`);
    return {
      statusCode: null,
      error: `forwarding to ${forwardTo} failed: ${cause}`,
      latencyMs: Date.now() - started,
      text: `forwarding failed: ${cause}`,
      contentType: null,
    };
  }
}

/** Prints the line of a received delivery. */
function received(body: string, contentType: string | undefined, eventId: string): void {
  const what = describeDelivery(body, contentType);
  // Anyone who can reach the port can send these, body and headers alike.
  out(`${new Date().toISOString()}  ${what.kind.padEnd(7)}  ${oneLine(what.type)}  ${oneLine(eventId)}${what.ids ? `  ${oneLine(what.ids)}` : ''}`);
}

type Listener = Static<typeof CliListener>;

/**
 * Client mode: takes the deliveries the service holds for this listener (long polls), prints each, forwards it, and
 * reports the outcome, which the service records as an attempt. Registers again when the registration lapsed (the
 * machine slept); keeps trying when the service cannot be reached. Ends when `stop` aborts.
 */
async function relay(client: ServiceClient, first: Listener, forwardTo: string | undefined, stop: AbortSignal): Promise<Listener> {
  let listener = first;
  let failures = 0;
  while (!stop.aborted) {
    let polled: Static<typeof CliPolled>;
    try {
      polled = await client.call('POST', `/cli/v1/listeners/${listener.listenerId}/poll`, {
        query: { wait: POLL_WAIT_SECONDS },
        signal: stop,
        timeoutMs: (POLL_WAIT_SECONDS + 30) * 1000,
      });
      failures = 0;
    } catch (caught) {
      let e = caught;
      if (stop.aborted) break;
      if (e instanceof ServiceAnswer && e.status === 404) {
        try {
          listener = await register(client);
          out(`${new Date().toISOString()}  the registration lapsed; registered again as ${listener.target}`);
          continue;
        } catch (again) {
          e = again;
        }
      }
      const delay = RETRY_DELAYS_MS[Math.min(failures++, RETRY_DELAYS_MS.length - 1)]!;
      out(`${new Date().toISOString()}  error  ${oneLine((e as Error).message)}; trying again in ${delay / 1000} s`);
      await sleep(delay, undefined, { signal: stop }).catch(() => undefined);
      continue;
    }
    for (const d of polled.deliveries) {
      const headers = Object.fromEntries(d.headers.map((h) => [h.name, h.value]));
      received(d.body, headers['content-type'], d.eventId);
      const outcome = forwardTo ? await forward(forwardTo, headers, d.body) : undefined;
      try {
        await client.call<Static<typeof CliOutcomeRecorded>>('POST', `/cli/v1/listeners/${listener.listenerId}/deliveries/${d.deliveryId}/outcome`, {
          body: {
            claim: d.claim,
            statusCode: outcome?.statusCode ?? null,
            error: outcome?.error ?? null,
            latencyMs: outcome?.latencyMs ?? 0,
            response: outcome ? outcome.text.slice(0, 500) : null,
          },
        });
      } catch (e) {
        // The delivery stays the service's to retry; the next poll goes on.
        out(`    could not report the outcome of delivery ${d.deliveryId}: ${oneLine((e as Error).message)}`);
      }
    }
  }
  return listener;
}

/** Registers a polled listener for the client's partner. */
function register(client: ServiceClient): Promise<Listener> {
  return client.call<Listener>('POST', '/cli/v1/listeners', { body: { partnerId: client.partnerId } });
}

/**
 * `ledgerlink listen`: a receiver for the partner's TxPUSH notifications and Connect webhooks. It prints each
 * delivery on a line and forwards it (same body, content type and signature headers) to --forward-to. Its local
 * HTTP receiver answers the TxPUSH verification handshake, so its URL can be subscribed directly.
 * - client mode: registers with the service, which holds a copy of every push and webhook of the partner for it;
 *   listen takes them by polling, so it works wherever the service runs, and reports each forward's answer back.
 * - direct mode with --partner: registers the local receiver's URL on the store, where the worker sends the copies.
 * - --local: the local receiver only.
 */
export async function listen(argv: string[]): Promise<void> {
  const { values } = parse(
    argv,
    {
      ...clientOptions,
      'forward-to': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      partner: { type: 'string' },
      data: { type: 'string' },
      local: { type: 'boolean', default: false },
    },
    USAGE,
  );
  const forwardTo = checkForwardUrl(values['forward-to']);
  const port = values.port === '0' ? 0 : (positiveInteger('--port', values.port, USAGE) ?? 0);
  if (port > 65535) throw new UsageError(`--port must be at most 65535 (got ${port})`, `usage: ${USAGE}`);
  if (values.local && (values.data !== undefined || values.partner !== undefined || hasClientFlags(values)))
    throw new UsageError('--local runs the local receiver only: it takes no --data, --partner or client options', `usage: ${USAGE}`);
  const target: Target | undefined = values.local ? undefined : chooseTarget(values);
  if (target?.mode === 'client') checkPartnerOption(target.client, values.partner);

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
    received(body, req.headers['content-type'], String(req.headers['webhook-id'] ?? '-'));
    if (!forwardTo) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    const answer = await forward(forwardTo, forwardHeaders(req), body);
    res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.contentType ?? 'text/plain' });
    res.end(answer.text);
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
  const stopRelay = new AbortController();
  let relaying: Promise<Listener> | undefined;
  let receiving: string | undefined;
  const stop = async () => {
    if (renew) clearInterval(renew);
    stopRelay.abort();
    if (relaying && target?.mode === 'client') {
      const last = await relaying.catch(() => undefined);
      if (last) await target.client.call('DELETE', `/cli/v1/listeners/${last.listenerId}`).catch(() => undefined);
    }
    if (runtime) {
      if (registration !== undefined) await removeSandboxListener(runtime.database.kysely, registration).catch(() => undefined);
      await runtime.database.close();
    }
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  try {
    if (target?.mode === 'client') {
      const listener = await register(target.client);
      relaying = relay(target.client, listener, forwardTo, stopRelay.signal);
      receiving = `Receiving every TxPUSH notification and Connect webhook of partner ${target.client.partnerId} from ${target.client.url} (held for ${listener.target} until listen stops).`;
    } else if (target?.mode === 'direct' && values.partner !== undefined) {
      runtime = await openStore(target.dataDir);
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
      receiving = `Receiving every TxPUSH notification and Connect webhook of partner ${values.partner} (registered on the data store until listen stops).`;
    }
  } catch (e) {
    await stop();
    throw e;
  }

  // Signals are handled before the banner says it listens: a script may stop it the moment it reads that.
  const stopped = new Promise<void>((resolve) => {
    const onSignal = () => {
      void stop().finally(resolve);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  // One write, so whoever reads the output (a script waiting for the URL) gets the whole banner at once.
  out(
    [
      `listen: listening on ${ownUrl}`,
      receiving ?? 'Subscribe this URL as a TxPUSH callbackUrl or use it as a Connect webhook; the verification handshake is answered here.',
      forwardTo ? `Forwarding each delivery to ${forwardTo}. Ctrl-C stops.` : 'Printing each delivery (no --forward-to). Ctrl-C stops.',
    ].join('\n'),
  );
  await stopped;
}
