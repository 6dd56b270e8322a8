import type { FastifyReply, FastifyRequest } from 'fastify';
import { whenReady } from '../platform/when-ready.js';
import { readCustomerForPartner } from '../modules/customers/service.js';
import type { CustomerRow } from '../modules/customers/table.js';
import type { App } from './app-types.js';

interface Entry {
  version: string;
  body: Buffer;
  contentType: string;
  /** What the entry counts against maxBytes: its body and its key. */
  cost: number;
}

/**
 * Serialised read responses of this process, each stored with the version of the data it was built from, least
 * recently used dropped first beyond `maxBytes`. An entry answers a request only while the version the request
 * reads is still the one stored: the caller reads the version before building the response, so an entry never
 * claims data older than it holds, and versions only move forward (customers' `data_version`, kept by database
 * triggers in the writer's own transaction; the catalogue's version and the current second for institution lists).
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number) {}

  /** No entry may take more than this share of the whole, so one large answer cannot flush everything else. */
  get maxEntryBytes(): number {
    return Math.floor(this.maxBytes / 16);
  }

  get size(): number {
    return this.entries.size;
  }

  get storedBytes(): number {
    return this.bytes;
  }

  lookup(key: string, version: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.version !== version) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  store(key: string, version: string, body: Buffer, contentType: string): void {
    const cost = body.length + key.length * 2;
    if (cost > this.maxEntryBytes) return;
    this.remove(key);
    this.entries.set(key, { version, body, contentType, cost });
    this.bytes += cost;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.bytes -= entry.cost;
  }
}

/**
 * Answers a read from the cache while `version` is current, otherwise builds it with `compute`, serialises it once
 * (JSON by the route's response schema, or XML) and keeps the bytes. The key holds everything the bytes depend on
 * besides the data: the partner, the wire format and the URL with its query. Errors are never cached.
 */
export function cachedRead<T>(
  cache: ResponseCache,
  request: FastifyRequest,
  reply: FastifyReply,
  version: string | number,
  compute: () => Promise<T>,
): T | Promise<T> {
  if (cache.maxBytes === 0) return compute();
  const key = `${request.caller?.partnerId ?? ''} ${request.wireFormat} ${request.url}`;
  const v = String(version);
  const hit = cache.lookup(key, v);
  // The bytes stand in for T: Fastify sends a Buffer as it is, without the serializer (a type the route's reply
  // cannot say). A hit is returned at once, so a handler that has all it needs in memory answers without a promise.
  if (hit) {
    reply.type(hit.contentType);
    return hit.body as unknown as T;
  }
  return compute().then((payload) => {
    const contentType = request.wireFormat === 'xml' ? 'application/xml; charset=utf-8' : 'application/json; charset=utf-8';
    const body = Buffer.from(reply.serialize(payload) as string);
    cache.store(key, v, body, contentType);
    reply.type(contentType);
    return body as unknown as T;
  });
}

/**
 * cachedRead of data of one of the calling partner's customers, versioned by the customer's `data_version`
 * (404 for a customer the partner does not have). `compute` gets the customer.
 */
export function cachedCustomerRead<T>(
  app: App,
  request: FastifyRequest,
  reply: FastifyReply,
  customerId: string,
  compute: (customer: Readonly<CustomerRow>) => Promise<T>,
): T | Promise<T> {
  const { database } = app.engine.runtime;
  return whenReady(readCustomerForPartner(database, request.caller.partnerId, customerId, request.dataStamp), (customer) =>
    cachedRead(app.responseCache, request, reply, customer.data_version, () => compute(customer)),
  );
}
