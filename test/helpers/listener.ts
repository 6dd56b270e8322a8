import http, { type IncomingHttpHeaders } from 'node:http';
import net, { type AddressInfo } from 'node:net';

/** One request the listener received. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  eventId: string | undefined;
  /** The status the listener answered; undefined while in flight or when the caller went away first. */
  status?: number;
}

/** How to answer one request: a status (and body), after an optional delay; `hang` never answers. */
export type Answer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number; after?: Promise<unknown> } | { hang: true };

export type Behaviour = (request: Received, index: number) => Answer;

export interface Listener {
  /** http://127.0.0.1:PORT/hook */
  url: string;
  port: number;
  requests: Received[];
  /** Event ids that got an answer of 200. */
  acknowledged(): Set<string>;
  /** Requests in flight right now, per event id. */
  inFlight: Map<string, number>;
  /** Event ids that were ever in flight twice at the same moment. */
  overlaps: Set<string>;
  /** The most requests ever in flight at once. */
  peakInFlight(): number;
  /** Requests in flight right now. */
  openNow(): number;
  setBehaviour(behaviour: Behaviour): void;
  close(): Promise<void>;
}

/** A local HTTP listener that records every request, answers as told (200 by default) and tracks overlaps. */
export async function startListener(behaviour: Behaviour = () => ({ status: 200 })): Promise<Listener> {
  let current = behaviour;
  const requests: Received[] = [];
  const inFlight = new Map<string, number>();
  const overlaps = new Set<string>();
  let open = 0;
  let peak = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    const id = req.headers['webhook-id'] as string | undefined;
    if (id) {
      const n = (inFlight.get(id) ?? 0) + 1;
      inFlight.set(id, n);
      if (n > 1) overlaps.add(id);
    }
    peak = Math.max(peak, ++open);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      open--;
      if (id) inFlight.set(id, inFlight.get(id)! - 1);
    };
    // The caller closing the connection (timeout, killed process) ends its attempt too.
    res.on('close', end);
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: Received = { method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), eventId: id };
      const index = requests.push(received) - 1;
      const answer = current(received, index);
      if ('hang' in answer) return;
      const reply = () => {
        if (res.destroyed) return;
        received.status = answer.status;
        end();
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      };
      if (answer.after) void answer.after.then(reply);
      else if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    acknowledged: () => new Set(requests.filter((r) => r.status === 200 && r.eventId).map((r) => r.eventId!)),
    inFlight,
    overlaps,
    peakInFlight: () => peak,
    openNow: () => open,
    setBehaviour: (b) => (current = b),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `condition` until it holds; fails with `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

// Ports `freePort` hands out: below the kernel's ephemeral range (32768 and up on Linux), so that no connection's
// source port and no `listen(0)` can take one between the check and the test's own bind (an ephemeral port checked
// free was taken in between once: EADDRINUSE). Each process starts at a random place of the range and goes on from
// there, so processes running at once rarely meet; `reservePort` keeps the port bound until the caller binds it.
const PORTS_FROM = 20_000;
const PORTS = 12_000;
let nextPort = Math.floor(Math.random() * PORTS);

function bindOn(port: number): Promise<net.Server | undefined> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** A loopback port bound by this process until `release()`, which frees it for the caller to bind at once. */
export async function reservePort(): Promise<{ port: number; release(): Promise<void> }> {
  for (let tried = 0; tried < PORTS; tried++) {
    const port = PORTS_FROM + (nextPort++ % PORTS);
    const server = await bindOn(port);
    if (server) return { port, release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }
  throw new Error(`no free port in ${PORTS_FROM}-${PORTS_FROM + PORTS - 1}`);
}

/** A loopback port free right now, which nothing else takes until the test binds it (see PORTS_FROM). */
export async function freePort(): Promise<number> {
  const reserved = await reservePort();
  await reserved.release();
  return reserved.port;
}
