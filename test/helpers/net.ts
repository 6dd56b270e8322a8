import type dns from 'node:dns';
import net from 'node:net';
import selfsigned from 'selfsigned';
import type { Resolver } from '../../src/platform/net/outbound.js';

/** A self-signed certificate for `name` (its subjectAltName too), for a local https server a test trusts by its `cert`. */
export async function selfSignedFor(name: string): Promise<{ cert: string; key: string }> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: name }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2 as const, value: name }] }],
  });
  return { cert: pems.cert, key: pems.private };
}

/** Stands for DNS: answers names from a fixed table as dns.lookup does with { all: true }, noting each name asked. */
export function tableResolver(table: Record<string, string[]>, asked: string[] = []): Resolver {
  return ((hostname: string, _options: unknown, callback: (e: Error | null, a: dns.LookupAddress[]) => void) => {
    asked.push(hostname);
    const found = table[hostname];
    if (!found) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(
      null,
      found.map((address) => ({ address, family: net.isIP(address) })),
    );
  }) as unknown as Resolver;
}
