import { describe, expect, it } from 'vitest';
import { MemoryCache, NoCache } from '../../src/platform/cache/index.js';

interface Answer {
  body: Buffer;
  contentType: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** What an entry costs the cache: its body plus its key (two bytes per UTF-16 unit). */
const cost = (key: string, body: Buffer) => body.length + key.length * 2;
const bytes = (n: number, fill = 'x') => Buffer.alloc(n, fill);

const newCache = (maxBytes: number) => new MemoryCache<Answer>(maxBytes, (a) => a.body.length);

describe('MemoryCache', () => {
  it('answers only under the version the entry was stored with; another version is a miss', () => {
    const cache = newCache(1 << 20);
    const body = Buffer.from('{"a":1}');
    cache.store('k', '7', { body: body, contentType: JSON_TYPE });
    const hit = cache.lookup('k', '7');
    expect(hit?.body).toBe(body);
    expect(hit?.contentType).toBe(JSON_TYPE);
    expect([cache.hits, cache.misses]).toEqual([1, 0]);
    expect(cache.lookup('k', '8')).toBeUndefined();
    expect(cache.lookup('k', '6')).toBeUndefined();
    expect(cache.lookup('other', '7')).toBeUndefined();
    expect([cache.hits, cache.misses]).toEqual([1, 3]);
    // The entry is still there for its own version.
    expect(cache.lookup('k', '7')?.body.toString()).toBe('{"a":1}');
    expect(cache.hits).toBe(2);
  });

  it('after a new version is stored, the old version misses and the new one hits', () => {
    const cache = newCache(1 << 20);
    cache.store('k', '1', { body: Buffer.from('old'), contentType: JSON_TYPE });
    cache.store('k', '2', { body: Buffer.from('new'), contentType: JSON_TYPE });
    expect(cache.lookup('k', '1')).toBeUndefined();
    expect(cache.lookup('k', '2')?.body.toString()).toBe('new');
    expect(cache.size).toBe(1);
  });

  it('evicts least recently used entries by bytes, keeping the ones looked up lately', () => {
    // Room for exactly sixteen entries of this size (each is at most maxBytes/16).
    const key = (i: number) => `key-${String(i).padStart(2, '0')}`;
    const body = bytes(100);
    const each = cost(key(0), body);
    const cache = newCache(each * 16);
    const limit = cache.maxBytes;
    expect(each).toBeLessThanOrEqual(cache.maxEntryBytes);
    for (let i = 0; i < 16; i++) cache.store(key(i), 'v', { body: body, contentType: JSON_TYPE });
    expect(cache.size).toBe(16);
    expect(cache.storedBytes).toBe(limit);
    // Use 0 and 1: they become the most recent.
    expect(cache.lookup(key(0), 'v')).toBeDefined();
    expect(cache.lookup(key(1), 'v')).toBeDefined();
    // Two more entries push out the two least recently used: 2 and 3.
    cache.store(key(16), 'v', { body: body, contentType: JSON_TYPE });
    cache.store(key(17), 'v', { body: body, contentType: JSON_TYPE });
    expect(cache.size).toBe(16);
    expect(cache.storedBytes).toBeLessThanOrEqual(limit);
    expect(cache.lookup(key(2), 'v')).toBeUndefined();
    expect(cache.lookup(key(3), 'v')).toBeUndefined();
    for (const i of [0, 1, 4, 15, 16, 17]) expect(cache.lookup(key(i), 'v'), key(i)).toBeDefined();
  });

  it('evicts as many old entries as a larger new one needs', () => {
    const small = bytes(10);
    const cache = newCache(1600);
    // Each small entry costs 10 + 2 * 4 = 18 bytes; 88 of them take 1584 of 1600.
    for (let i = 0; i < 88; i++) cache.store(`s${String(i).padStart(3, '0')}`, 'v', { body: small, contentType: JSON_TYPE });
    expect(cache.storedBytes).toBe(88 * 18);
    // 96 bytes of body + 2 * 2 of key = 100 = maxBytes / 16: allowed, and needs 84 more bytes than are free.
    cache.store('bg', 'v', { body: bytes(96), contentType: JSON_TYPE });
    expect(cache.lookup('bg', 'v')).toBeDefined();
    expect(cache.storedBytes).toBeLessThanOrEqual(1600);
    // ceil(84 / 18) = 5 of the oldest went, no more.
    expect(cache.size).toBe(88 - 5 + 1);
    expect(cache.storedBytes).toBe((88 - 5) * 18 + 100);
    for (let i = 0; i < 5; i++) expect(cache.lookup(`s00${i}`, 'v')).toBeUndefined();
    expect(cache.lookup('s005', 'v')).toBeDefined();
  });

  it('does not keep an entry larger than maxBytes/16, and keeps one of exactly that size', () => {
    const cache = newCache(16_000);
    expect(cache.maxEntryBytes).toBe(1000);
    cache.store('small', 'v', { body: bytes(10), contentType: JSON_TYPE });
    // Key 'big' costs 6 bytes: 995 + 6 = 1001 is one too many.
    cache.store('big', 'v', { body: bytes(995), contentType: JSON_TYPE });
    expect(cache.lookup('big', 'v')).toBeUndefined();
    expect(cache.size).toBe(1);
    expect(cache.storedBytes).toBe(cost('small', bytes(10)));
    // Nothing was evicted to make room for it.
    expect(cache.lookup('small', 'v')).toBeDefined();
    cache.store('big', 'v', { body: bytes(994), contentType: JSON_TYPE });
    expect(cache.lookup('big', 'v')?.body.length).toBe(994);
    expect(cache.storedBytes).toBe(cost('small', bytes(10)) + 1000);
  });

  it('replaces an entry stored again under the same key, counting its bytes once', () => {
    const cache = newCache(1 << 20);
    cache.store('k', '1', { body: bytes(500), contentType: JSON_TYPE });
    cache.store('other', '1', { body: bytes(20), contentType: JSON_TYPE });
    const base = cost('other', bytes(20));
    expect(cache.storedBytes).toBe(base + cost('k', bytes(500)));
    cache.store('k', '2', { body: bytes(100, 'y'), contentType: 'application/xml; charset=utf-8' });
    expect(cache.size).toBe(2);
    expect(cache.storedBytes).toBe(base + cost('k', bytes(100)));
    const hit = cache.lookup('k', '2');
    expect(hit?.body).toEqual(bytes(100, 'y'));
    expect(hit?.contentType).toBe('application/xml; charset=utf-8');
    // The same version again, larger this time.
    cache.store('k', '2', { body: bytes(700), contentType: JSON_TYPE });
    expect(cache.size).toBe(2);
    expect(cache.storedBytes).toBe(base + cost('k', bytes(700)));
    // Replacing many times never lets the count drift.
    for (let i = 0; i < 50; i++) cache.store('k', String(i), { body: bytes(i * 3), contentType: JSON_TYPE });
    expect(cache.storedBytes).toBe(base + cost('k', bytes(49 * 3)));
  });

  it('with the bytes counted right, eviction happens exactly at the bound after replacements', () => {
    // If replacing double-counted, the cache would evict too early; if it under-counted, too late.
    const cache = newCache(1600);
    for (let i = 0; i < 10; i++) cache.store('a', String(i), { body: bytes(98), contentType: JSON_TYPE }); // costs 100 each time
    for (let i = 0; i < 15; i++) cache.store(`b${String(i).padStart(2, '0')}`, 'v', { body: bytes(94), contentType: JSON_TYPE }); // 94 + 6 = 100
    expect(cache.storedBytes).toBe(1600);
    expect(cache.size).toBe(16);
    expect(cache.lookup('a', '9')).toBeDefined();
    cache.store('c', 'v', { body: bytes(98), contentType: JSON_TYPE });
    expect(cache.size).toBe(16);
    expect(cache.lookup('b00', 'v')).toBeUndefined();
    expect(cache.lookup('a', '9')).toBeDefined();
  });

  it('the none cache keeps nothing and counts nothing', () => {
    const cache = new NoCache<Answer>();
    expect(cache.keeps).toBe(false);
    cache.store('k', 'v', { body: bytes(1), contentType: JSON_TYPE });
    expect(cache.size).toBe(0);
    expect(cache.storedBytes).toBe(0);
    expect(cache.lookup('k', 'v')).toBeUndefined();
  });
});
