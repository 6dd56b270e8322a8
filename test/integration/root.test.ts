import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('GET / (the service address)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('sends a browser to the dashboard', async () => {
    const res = await ctx.app.inject({ url: '/', headers: { accept: BROWSER } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/dashboard');
    expect(res.headers.vary).toMatch(/accept/i);
    const page = await ctx.app.inject({ url: res.headers.location as string, headers: { accept: BROWSER } });
    expect([200, 503]).toContain(page.statusCode);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });

  it('keeps answering API clients with the API not-found error, in their format', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'text/html;q=0, application/json']) {
      const res = await ctx.app.inject({ url: '/', headers: accept ? { accept } : {} });
      expect(res.statusCode, String(accept)).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ code: '10404', message: 'Route not found: GET /' });
    }
    const xml = await ctx.app.inject({ url: '/', headers: { accept: 'application/xml' } });
    expect(xml.statusCode).toBe(404);
    expect(xml.headers['content-type']).toMatch(/^application\/xml/);
    expect(xml.body).toContain('Route not found: GET /');
    // The same answer as any other unknown path, apart from the path.
    const other = await ctx.app.inject({ url: '/no-such-page', headers: { accept: 'application/xml' } });
    expect(xml.body).toBe(other.body.replace('/no-such-page', '/'));
    expect(Object.keys(xml.headers).sort()).toEqual(Object.keys(other.headers).sort());
  });

  it('answers HEAD / like GET /, without a body', async () => {
    const browser = await ctx.app.inject({ method: 'HEAD', url: '/', headers: { accept: BROWSER } });
    expect(browser.statusCode).toBe(302);
    expect(browser.headers.location).toBe('/dashboard');
    expect(browser.body).toBe('');
    const client = await ctx.app.inject({ method: 'HEAD', url: '/', headers: { accept: 'application/json' } });
    expect(client.statusCode).toBe(404);
    expect(client.body).toBe('');
  });

  it('leaves other methods on / and other paths as they were', async () => {
    const post = await ctx.app.inject({ method: 'POST', url: '/', headers: { accept: BROWSER } });
    expect(post.statusCode).toBe(404);
    const unknown = await ctx.app.inject({ url: '/nowhere', headers: { accept: BROWSER } });
    expect(unknown.statusCode).toBe(404);
  });
});
