import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { addRouteHook } from '../../src/http/route-hooks.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    tag?: string;
  }
}

function appWithTaggingHook() {
  const app = Fastify();
  const made: Array<{ url: string | undefined; tag: string | undefined; notFound: boolean }> = [];
  const ran: string[] = [];
  addRouteHook(app, 'onRequest', (options, notFound) => {
    made.push({ url: options.url, tag: options.config?.tag, notFound });
    if (options.config?.tag === 'skip') return undefined;
    const label = notFound ? 'not found' : `${options.config?.tag ?? 'untagged'} ${options.url}`;
    return (request, reply, done) => {
      ran.push(`${request.method} ${label}`);
      if (request.headers['x-fail'] === 'yes') throw new Error(`refused by ${label}`);
      reply.header('x-hook', label);
      done();
    };
  });
  // A later onRoute hook changes the config after addRouteHook's ran: the hook must see the final config.
  app.addHook('onRoute', (route) => {
    if (route.url === '/late') route.config = { ...route.config, tag: 'late' };
  });
  app.get('/a', { config: { tag: 'first' } }, async () => ({ ok: 'a' }));
  app.get('/b', { config: { tag: 'skip' } }, async () => ({ ok: 'b' }));
  app.get('/late', async () => ({ ok: 'late' }));
  return { app, made, ran };
}

describe('per-route hooks', () => {
  it("makes each route's hook once, on its first request, from the route's final options", async () => {
    const { app, made, ran } = appWithTaggingHook();
    for (let i = 0; i < 3; i++) expect((await app.inject({ url: '/a' })).headers['x-hook']).toBe('first /a');
    expect((await app.inject({ url: '/late' })).headers['x-hook']).toBe('late /late');
    expect(made).toEqual([
      { url: '/a', tag: 'first', notFound: false },
      { url: '/late', tag: 'late', notFound: false },
    ]);
    expect(ran).toEqual(['GET first /a', 'GET first /a', 'GET first /a', 'GET late /late']);
  });

  it('runs nothing where the route needs nothing', async () => {
    const { app, ran } = appWithTaggingHook();
    const res = await app.inject({ url: '/b' });
    expect(res.json()).toEqual({ ok: 'b' });
    expect(res.headers['x-hook']).toBeUndefined();
    expect(ran).toEqual([]);
  });

  it('gives requests that no route matched the not-found hook, and matched ones only their own', async () => {
    const { app, made, ran } = appWithTaggingHook();
    expect((await app.inject({ url: '/nowhere' })).headers['x-hook']).toBe('not found');
    await app.inject({ url: '/nowhere/else' });
    await app.inject({ url: '/a' });
    expect(made.filter((m) => m.notFound)).toHaveLength(1);
    expect(ran).toEqual(['GET not found', 'GET not found', 'GET first /a']);
  });

  it('runs once for the HEAD route Fastify adds to a GET route', async () => {
    const { app, ran } = appWithTaggingHook();
    const res = await app.inject({ method: 'HEAD', url: '/a' });
    expect(res.statusCode).toBe(200);
    expect(ran).toEqual(['HEAD first /a']);
  });

  it("passes a throw on as the request's error", async () => {
    const { app } = appWithTaggingHook();
    const res = await app.inject({ url: '/a', headers: { 'x-fail': 'yes' } });
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toBe('refused by first /a');
  });

  it('runs the hooks added under one name in the order added, from one Fastify hook per route; a later one waits for an earlier one that answers later', async () => {
    const app = Fastify();
    const ran: string[] = [];
    addRouteHook(app, 'onRequest', (options, notFound) => (_request, _reply, done) => {
      // Answers in a later turn, like a lookup that had to go to the database.
      setTimeout(() => {
        ran.push(`first ${notFound ? 'not found' : options.url}`);
        done();
      }, 5);
    });
    addRouteHook(app, 'onRequest', (options, notFound) => (request, _reply, done) => {
      ran.push(`second ${notFound ? 'not found' : options.url}`);
      if (request.headers['x-fail'] === 'second') throw new Error('refused by the second');
      done();
    });
    addRouteHook(app, 'onRequest', () => undefined);
    let hooksOfRoute = 0;
    app.addHook('onRoute', (route) => {
      hooksOfRoute = [route.onRequest ?? []].flat().length;
    });
    app.get('/x', async () => {
      ran.push('handler');
      return { ok: true };
    });
    await app.ready();
    expect(hooksOfRoute).toBe(1);
    expect((await app.inject({ url: '/x' })).statusCode).toBe(200);
    expect(ran).toEqual(['first /x', 'second /x', 'handler']);
    ran.length = 0;
    const refused = await app.inject({ url: '/x', headers: { 'x-fail': 'second' } });
    expect(refused.statusCode).toBe(500);
    expect(refused.json().message).toBe('refused by the second');
    expect(ran).toEqual(['first /x', 'second /x']);
    ran.length = 0;
    expect((await app.inject({ url: '/elsewhere' })).statusCode).toBe(404);
    expect(ran).toEqual(['first not found', 'second not found']);
  });
});
