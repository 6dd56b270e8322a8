import Fastify from 'fastify';
import Type from 'typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { LedgerlinkTypeProvider, SerialisedAnswer } from '../../src/http/app-types.js';
import { cachedRead, createResponseCache, type CachedRead } from '../../src/http/response-cache.js';

const Count = Type.Object({ count: Type.Integer(), label: Type.String() });
type Count = { count: number; label: string };

/** A bare Fastify app with one cached read, JSON by its response schema, counting how often it builds the answer. */
async function appWithCachedRead(maxBytes: number) {
  const cache = createResponseCache(maxBytes);
  let built = 0;
  const app = Fastify().withTypeProvider<LedgerlinkTypeProvider>();
  app.decorateRequest('wireFormat', 'json');
  app.get('/count', {
    schema: { response: { 200: Count } },
    // The handler returns what cachedRead answers as it is: the record, or its bytes.
    handler: (request, reply) => cachedRead(cache, request, reply, 'v1', async () => ({ count: ++built, label: 'ünïcode "quoted"', extra: 'dropped' })),
  });
  await app.ready();
  return { app, cache, built: () => built };
}

describe('response cache', () => {
  it('answers a hit with the bytes the miss sent, sent as they are, without building the answer again', async () => {
    const { app, cache, built } = await appWithCachedRead(1 << 20);
    const first = await app.inject({ method: 'GET', url: '/count' });
    const second = await app.inject({ method: 'GET', url: '/count' });
    expect(first.statusCode).toBe(200);
    // Serialised by the route's schema: a field the schema does not name is dropped.
    expect(first.body).toBe('{"count":1,"label":"ünïcode \\"quoted\\""}');
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(built()).toBe(1);
    expect([cache.hits, cache.misses]).toEqual([1, 1]);
    await app.close();
  });

  it('with the cache off, builds every answer and lets Fastify serialise the record', async () => {
    const { app, built } = await appWithCachedRead(0);
    const first = await app.inject({ method: 'GET', url: '/count' });
    const second = await app.inject({ method: 'GET', url: '/count' });
    expect(first.body).toBe('{"count":1,"label":"ünïcode \\"quoted\\""}');
    expect(second.body).toBe('{"count":2,"label":"ünïcode \\"quoted\\""}');
    expect(built()).toBe(2);
    await app.close();
  });

  it('says in its type that a read answers the record or its serialised bytes', () => {
    expectTypeOf(cachedRead<Count>).returns.toEqualTypeOf<CachedRead<Count>>();
    expectTypeOf<CachedRead<Count>>().toEqualTypeOf<Count | SerialisedAnswer | Promise<Count | SerialisedAnswer>>();
    // The bytes are not a record: a caller cannot take them for one.
    expectTypeOf<SerialisedAnswer>().not.toMatchTypeOf<Count>();
  });
});
