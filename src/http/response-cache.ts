import type { FastifyReply, FastifyRequest } from 'fastify';
import { createCache, type VersionedCache } from '../platform/cache/index.js';
import { whenReady } from '../platform/when-ready.js';
import { readCustomerForPartner } from '../modules/customers/service.js';
import type { CustomerRow } from '../modules/customers/table.js';
import type { App, SerialisedAnswer } from './app-types.js';

/** A serialised answer: its bytes and their media type. */
export interface CachedAnswer {
  body: SerialisedAnswer;
  contentType: string;
}

/**
 * Serialised read responses of this process (platform/cache: `memory`, or `none` for LEDGERLINK_RESPONSE_CACHE_MB=0),
 * each valid for the version of the data it was built from: customers' `data_version` (kept by database triggers
 * in the writer's own transaction), or the catalogue's version and the current second for institution lists.
 */
export type ResponseCache = VersionedCache<CachedAnswer>;

export function createResponseCache(maxBytes: number): ResponseCache {
  return createCache<CachedAnswer>(maxBytes, (answer) => answer.body.length);
}

/** What a cached read answers: the record, or its bytes from the cache (at once when in memory). */
export type CachedRead<T> = T | SerialisedAnswer | Promise<T | SerialisedAnswer>;

/**
 * Answers a read from the cache while `version` is current, otherwise builds it with `compute`, serialises it once
 * (JSON by the route's response schema, or XML) and keeps the bytes. The key holds everything the bytes depend on
 * besides the data: the partner, the wire format and the URL with its query. Errors are never cached.
 *
 * The answer is the record with the cache off, else its bytes, which the handler returns for Fastify to send as they
 * are (never the reply: its `then` makes Fastify attach stream listeners to every response). A hit is returned at
 * once, so a handler that has all it needs in memory answers without a promise.
 */
export function cachedRead<T>(
  cache: ResponseCache,
  request: FastifyRequest,
  reply: FastifyReply,
  version: string | number,
  compute: () => Promise<T>,
): CachedRead<T> {
  if (!cache.keeps) return compute();
  const key = `${request.caller?.partnerId ?? ''} ${request.wireFormat} ${request.url}`;
  const v = String(version);
  const hit = cache.lookup(key, v);
  if (hit) {
    reply.type(hit.contentType);
    return hit.body;
  }
  return compute().then((payload) => {
    const contentType = request.wireFormat === 'xml' ? 'application/xml; charset=utf-8' : 'application/json; charset=utf-8';
    const body = Buffer.from(reply.serialize(payload) as string) as SerialisedAnswer;
    cache.store(key, v, { body, contentType });
    reply.type(contentType);
    return body;
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
): CachedRead<T> {
  const { database } = app.engine.runtime;
  return whenReady(readCustomerForPartner(database, request.caller.partnerId, customerId, request.dataStamp), (customer) =>
    cachedRead(app.responseCache, request, reply, customer.data_version, () => compute(customer)),
  );
}
