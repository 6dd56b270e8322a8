import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';

const MiB = 1 << 20;
// The body of the review's finding: quadratic for a scanner that looks for `>` from every `<`.
const hostile = '<r>' + '<'.repeat(MiB - 5) + '/>';
const plain = '<r>' + '<a>x</a>'.repeat((MiB - 7) / 8) + '</r>';

describe('hostile XML against a listening server', () => {
  let ctx: TestContext;
  let base: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => ctx.close());

  /** Posts a body; `sent` settles once the whole body is written, `answered` with the status and the time taken. */
  const postXml = (body: string) => {
    const started = performance.now();
    let sent!: () => void;
    const whenSent = new Promise<void>((resolve) => {
      sent = resolve;
    });
    const answered = new Promise<{ status: number; ms: number }>((resolve, reject) => {
      const req = http.request(
        `${base}/connect/api/session`,
        { method: 'POST', headers: { 'content-type': 'application/xml', accept: 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - started }));
        },
      );
      req.on('error', reject);
      req.end(body, sent);
    });
    return { whenSent, answered };
  };

  it('answers /health while three unauthenticated hostile bodies are in flight', async () => {
    let plainMs = Infinity;
    for (let i = 0; i < 3; i++) plainMs = Math.min(plainMs, (await postXml(plain).answered).ms);
    const inFlight = [postXml(hostile), postXml(hostile), postXml(hostile)];
    // The three bodies are sent first, so the health check queues behind their parsing.
    await Promise.all(inFlight.map((r) => r.whenSent));
    const started = performance.now();
    const health = await fetch(`${base}/health`);
    const healthMs = performance.now() - started;
    expect(health.status).toBe(200);
    const answers = await Promise.all(inFlight.map((r) => r.answered));
    for (const a of answers) expect(a.status).toBeGreaterThanOrEqual(400), expect(a.status).toBeLessThan(500);
    expect(healthMs / plainMs, `health ${healthMs.toFixed(0)} ms, one plain 1 MiB body ${plainMs.toFixed(0)} ms`).toBeLessThan(6);
  });
});
