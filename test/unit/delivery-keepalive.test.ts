import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { requestWithPolicy } from '../../src/outbox/transports/http.js';
import { createPolicyAgents, type PolicyAgents } from '../../src/platform/net/keepalive.js';

/**
 * A raw HTTP server: it answers the first `answered` requests of each connection with 200 and resets the connection
 * on the next one without answering, as a server does that closed a kept-alive connection just as a request came.
 */
async function resettingServer(answered: number): Promise<{ url: string; connections(): number; requests(): number; close(): Promise<void> }> {
  let connections = 0;
  let requests = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let seen = 0;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      // Requests without a body here: one ends at its blank line.
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        requests++;
        if (++seen > answered) {
          socket.resetAndDestroy();
          return;
        }
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`,
    connections: () => connections,
    requests: () => requests,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('kept-alive delivery connections', () => {
  let agents: PolicyAgents | undefined;
  let server: Awaited<ReturnType<typeof resettingServer>> | undefined;
  afterEach(async () => {
    agents?.destroy();
    await server?.close();
  });

  const get = (url: string, withAgents = true) =>
    requestWithPolicy({ url, method: 'GET', timeoutMs: 2000, mode: 'sandbox', agents: withAgents ? agents : undefined });

  it('reuses a connection, and sends a request again on a fresh one when the reused one turns out closed', async () => {
    server = await resettingServer(2);
    agents = createPolicyAgents({ mode: 'sandbox', maxSocketsPerOrigin: 1 });
    for (let i = 0; i < 2; i++) expect(await get(server.url)).toMatchObject({ status: 200, body: 'ok' });
    expect(server.connections()).toBe(1);
    // The next request on that connection is reset unanswered: it goes again on a connection of its own.
    expect(await get(server.url)).toMatchObject({ status: 200, body: 'ok' });
    expect(server.connections()).toBe(2);
    expect(server.requests()).toBe(4);
  });

  it('does not send again when a fresh connection is reset', async () => {
    server = await resettingServer(0);
    agents = createPolicyAgents({ mode: 'sandbox', maxSocketsPerOrigin: 1 });
    await expect(get(server.url)).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(server.requests()).toBe(1);
  });

  it('waits for a slow answer past the idle timeout, which only closes connections nobody uses', async () => {
    // The answer comes after the idle timeout: both are timers of this process, which fire in the order they fall due.
    const slow = http.createServer((_req, res) => setTimeout(() => res.writeHead(200).end('late'), 150));
    // The server never closes an idle connection itself: only the agent's idle timeout can.
    slow.keepAliveTimeout = 0;
    let connections = 0;
    slow.on('connection', () => connections++);
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      agents = createPolicyAgents({ mode: 'sandbox', maxSocketsPerOrigin: 1, idleMs: 30 });
      const freed = once(agents.http, 'free') as Promise<[net.Socket]>;
      const url = `http://127.0.0.1:${(slow.address() as net.AddressInfo).port}/hook`;
      expect(await get(url)).toMatchObject({ status: 200, body: 'late' });
      // Idle past its timeout, the kept connection is closed (whenever that is: the close is awaited, not a time)...
      const [kept] = await freed;
      if (!kept.closed) await once(kept, 'close');
      expect(Object.keys(agents.http.freeSockets)).toEqual([]);
      // ...and the next request opens another.
      expect(await get(url)).toMatchObject({ status: 200, body: 'late' });
      expect(connections).toBe(2);
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });

  it('opens a connection for every request without agents', async () => {
    server = await resettingServer(5);
    for (let i = 0; i < 3; i++) expect(await get(server.url, false)).toMatchObject({ status: 200 });
    expect(server.connections()).toBe(3);
  });
});
