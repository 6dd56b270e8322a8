import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogOf } from '../../src/modules/institutions/catalog.service.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { outsideProbe, outsideUpload } from '../helpers/outside-client.js';
import { csvStatementFile, ofxDay, ofxStatementFile } from '../helpers/statement-files.js';

const FINBANK = 101732;
const MB = 1024 * 1024;

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const summary = (xs: number[]) =>
  `p50 ${quantile(xs, 0.5).toFixed(1)} p99 ${quantile(xs, 0.99).toFixed(1)} worst ${Math.max(...xs).toFixed(1)} ms (${xs.length} probes)`;

/**
 * Expects the ratio `measure` gives to be under `limit`, and when it is not, measures once more and expects the
 * second to be. A latency outside clients read holds the machine's pauses beside the service's: on a busy CI machine
 * one /health answer of 841 once took 136 ms against 13.5 ms idle (10.06x), while the service's event loop, in the
 * same test run locally, never paused more than about 50 ms. A pause of the service comes back each time the same
 * uploads run; one of the machine's scheduler does not, so only a ratio over the limit twice fails.
 */
async function underLimitReproducibly(limit: number, measure: (round: number) => Promise<{ ratio: number; said: string }>): Promise<void> {
  const first = await measure(1);
  if (first.ratio < limit) return;
  const again = await measure(2);
  expect(again.ratio, `${again.said} (measured again; the first time ${first.said})`).toBeLessThan(limit);
}

/**
 * What a statement upload costs everyone else: files are read in a worker thread and stored in short slices that
 * take turns with other requests, so other requests are answered while three hostile 10 MB uploads run. Latencies
 * are measured by clients in processes of their own, as outside clients see them, and compared with the same
 * probes taken idle in the same run (a ratio), never with a fixed time.
 */
describe('the cost of statement uploads for other requests', () => {
  let ctx: TestContext;
  let base: string;
  const partners: TestPartner[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    ctx.clock.set(Date.parse('2026-12-01T12:00:00Z'));
    await ensureInstitutionCatalog(ctx.runtime.database);
    // As the server does before it listens (loading it holds the event loop).
    await catalogOf(ctx.runtime.database);
    for (let i = 0; i < 4; i++) partners.push(await partnerWithToken(ctx));
    // One small upload first: a route's first answer compiles its validators and serialisers (tens of milliseconds,
    // once per process), which is not what an upload costs the others.
    const warmUp = await ctx.app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${await addCustomer(ctx, partners[0]!)}/institutions/${FINBANK}/statements`,
      headers: { ...partners[0]!.headers, accept: 'application/json', 'content-type': 'text/csv' },
      payload: csvStatementFile(3),
    });
    expect(warmUp.statusCode, warmUp.body).toBe(200);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
  });

  it('answers /health within ten times its idle latency while three hostile 10 MB uploads run', async () => {
    // Each as costly per byte as a reader allows: the most rows a CSV file may have, long ones; an OFX file of the
    // most accounts, each with many transactions of long names; 10 MB of line breaks. Stored transactions are kept
    // to tens of thousands, so that the test measures the worst pause, not a long store.
    const csv = csvStatementFile(30_000, Math.floor((10 * MB - 100) / 30_000) - 1);
    const ofx = ofxStatementFile(
      Array.from({ length: 200 }, (_, a) => ({
        acctId: `9${String(a).padStart(9, '0')}`,
        transactions: Array.from({ length: 100 }, (_, t) => ({
          fitId: `F${a}-${t}`,
          date: ofxDay(t % 360),
          amount: -(t + 1) / 4,
          name: `PAYEE ${t} ${'N'.repeat(390)}`,
        })),
      })),
    );
    const newlines = '\n'.repeat(10 * MB);
    for (const file of [csv, ofx]) {
      expect(file.length).toBeLessThanOrEqual(10 * MB);
      expect(file.length).toBeGreaterThan(9 * MB);
    }

    /** Idle probes, then the three uploads (to new customers) with probes beside them: the worst of each. */
    const measure = async () => {
      const uploads = [];
      for (const [i, [file, type]] of (
        [
          [csv, 'text/csv'],
          [ofx, 'application/x-ofx'],
          [newlines, 'text/csv'],
        ] as const
      ).entries()) {
        const partner = partners[i]!;
        const customerId = await addCustomer(ctx, partner);
        const url = `${base}/aggregation/v1/customers/${customerId}/institutions/${FINBANK}/statements`;
        uploads.push(await outsideUpload(url, { ...partner.headers, accept: 'application/json', 'content-type': type }, file));
      }
      try {
        const idleProbe = await outsideProbe(`${base}/health`, 20);
        idleProbe.start();
        // About a hundred probes before anything runs.
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        const idle = await idleProbe.stop();

        const probe = await outsideProbe(`${base}/health`, 20);
        probe.start();
        const [csvAnswer, ofxAnswer, newlineAnswer] = await Promise.all(uploads.map((u) => u.send()));
        const loaded = await probe.stop();

        expect(csvAnswer!.status, csvAnswer!.body).toBe(200);
        expect(JSON.parse(csvAnswer!.body)).toMatchObject({ transactionsAdded: 30_000 });
        expect(ofxAnswer!.status, ofxAnswer!.body).toBe(200);
        expect(JSON.parse(ofxAnswer!.body)).toMatchObject({ transactionsAdded: 20_000 });
        expect(JSON.parse(ofxAnswer!.body).accounts).toHaveLength(200);
        expect([newlineAnswer!.status, JSON.parse(newlineAnswer!.body).code]).toEqual([400, '14111']);

        const said = `idle ${summary(idle)}; during the uploads ${summary(loaded)}; the uploads took ${[csvAnswer, ofxAnswer, newlineAnswer].map((a) => a!.ms.toFixed(0)).join(', ')} ms`;
        console.log(`upload cost (${ctx.runtime.database.dialect}): ${said}`);
        expect(idle.length, said).toBeGreaterThan(20);
        expect(loaded.length, said).toBeGreaterThan(20);
        return { ratio: Math.max(...loaded) / Math.max(...idle), said };
      } finally {
        for (const u of uploads) u.dispose();
      }
    };

    await underLimitReproducibly(10, measure);
  }, 600_000);

  it("keeps another partner's p99 within three times its idle value while one partner sends ten large uploads at once", async () => {
    // Partner A: ten uploads of the most accounts a file may have, at once (two run, the rest are refused at once);
    // partner B: new customers, one request after another, its latency read from outside.
    const [a, b] = [partners[0]!, partners[3]!];
    const file = ofxStatementFile(
      Array.from({ length: 200 }, (_, i) => ({
        acctId: `7${String(i).padStart(9, '0')}`,
        transactions: Array.from({ length: 60 }, (_, t) => ({ fitId: `B${i}-${t}`, date: ofxDay(t * 5), amount: -(t + 1), name: `SHOP ${t}` })),
      })),
    );
    /** Partner B's latencies idle, then during ten uploads of A's (to new customers): the 99th percentile of each. */
    const measure = async (round: number) => {
      const uploads = [];
      for (let i = 0; i < 10; i++) {
        const customerId = await addCustomer(ctx, a);
        const url = `${base}/aggregation/v1/customers/${customerId}/institutions/${FINBANK}/statements`;
        uploads.push(await outsideUpload(url, { ...a.headers, accept: 'application/json', 'content-type': 'application/x-ofx' }, file));
      }
      const newCustomer = (phase: string) => ({
        method: 'POST',
        body: `{"username":"b-{n}-${phase}-${round}","firstName":"B","lastName":"Customer"}`,
        headers: { ...b.headers, accept: 'application/json', 'content-type': 'application/json' },
      });
      try {
        // Five milliseconds apart: several hundred answers each way, so that the 99th percentile is not one answer.
        const idleProbe = await outsideProbe(`${base}/aggregation/v2/customers/testing`, 5, newCustomer('idle'));
        idleProbe.start();
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        const idle = await idleProbe.stop();

        const probe = await outsideProbe(`${base}/aggregation/v2/customers/testing`, 5, newCustomer('burst'));
        probe.start();
        const answers = await Promise.all(uploads.map((u) => u.send()));
        const loaded = await probe.stop();

        const stored = answers.filter((r) => r.status === 200);
        const refused = answers.filter((r) => r.status === 429);
        expect(stored.length + refused.length, answers.map((r) => `${r.status} ${r.body.slice(0, 100)}`).join('; ')).toBe(10);
        expect(stored.length).toBeGreaterThanOrEqual(2);
        for (const r of stored) expect(JSON.parse(r.body).accounts).toHaveLength(200);

        const said = `B idle ${summary(idle)}; during A's uploads ${summary(loaded)}; A: ${stored.length} stored, ${refused.length} refused`;
        console.log(`partner isolation (${ctx.runtime.database.dialect}): ${said}`);
        expect(idle.length, said).toBeGreaterThan(20);
        expect(loaded.length, said).toBeGreaterThan(20);
        return { ratio: quantile(loaded, 0.99) / quantile(idle, 0.99), said };
      } finally {
        for (const u of uploads) u.dispose();
      }
    };
    await underLimitReproducibly(3, measure);
  }, 600_000);
});
