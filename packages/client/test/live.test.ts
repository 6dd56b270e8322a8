import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LedgerlinkClient } from '@ledgerlink/client';
import { loadConfig } from '../../../src/config.js';
import { createPartner } from '../../../src/domain/partners/service.js';
import { enqueueDelivery } from '../../../src/delivery/enqueue.js';
import { generateSigningSecret } from '../../../src/delivery/sign.js';
import { openRuntime, type Runtime } from '../../../src/runtime.js';
import { startServe, tempDataDir, type ServerProcess } from '../../../test/helpers/cli.js';
import { createTestContext, type TestContext } from '../../../test/helpers/context.js';
import { waitFor } from '../../../test/helpers/listener.js';
import { runPartnerApp, startPushListener } from '../examples/partner-app.js';
import { ManualClock } from './fake-service.js';

const MINUTE = 60_000;

/** The partner credentials `ledgerlink serve --first-partner` prints. */
function printedCredentials(stdout: string) {
  const value = (name: string) => new RegExp(`${name}\\s+(\\S+)`).exec(stdout)?.[1] ?? '';
  return { partnerId: value('partnerId'), partnerSecret: value('partnerSecret'), appKey: value('appKey') };
}

describe('the example partner app against a running ledgerlink serve', () => {
  const env = { LEDGERLINK_DATA_DIR: tempDataDir(), LEDGERLINK_MASTER_KEY: randomBytes(32).toString('hex'), LEDGERLINK_WORKER_POLL_MS: '100' };
  let server: ServerProcess;
  let listener: Awaited<ReturnType<typeof startPushListener>>;
  let runtime: Runtime | undefined;
  const log: string[] = [];

  beforeAll(async () => {
    listener = await startPushListener(0, (line) => log.push(line));
    server = await startServe(['--first-partner'], { ...env, LEDGERLINK_PUSH_EXTRA_PORTS: new URL(listener.url).port });
  });
  afterAll(async () => {
    server?.kill();
    await server?.exited;
    await runtime?.database.close();
    await listener?.close();
  });

  it('enrols, links profile_03, refreshes, pages through transactions, renews its token on its clock and receives a verified push', async () => {
    const clock = new ManualClock(Date.now());
    const sent: Array<{ path: string; token: string | null }> = [];
    const client = new LedgerlinkClient({
      baseUrl: server.url,
      ...printedCredentials(server.stdout()),
      clock,
      fetch: (request) => {
        sent.push({ path: new URL(request.url).pathname, token: request.headers.get('service-app-token') });
        return fetch(request);
      },
    });
    const authentications = () => sent.filter((s) => s.path === '/aggregation/v2/partners/authentication').length;

    const result = await runPartnerApp(client, listener, (line) => log.push(line));
    expect(result.accounts.length).toBeGreaterThan(1);
    expect(result.accounts.every((a) => a.aggregationStatusCode === 0)).toBe(true);
    expect(result.pages).toBeGreaterThan(1);
    expect(result.transactions).toBeGreaterThan(100);
    expect(log).toContain(`${result.transactions} transactions of the last 90 days in ${result.pages} pages`);
    expect(authentications()).toBe(1);
    const firstToken = sent.at(-1)!.token;

    // 89 minutes on the client's clock: the same token. 91: concurrent calls share one renewal.
    clock.advance(89 * MINUTE);
    await client.getCustomerAccounts(result.customer.id);
    expect(authentications()).toBe(1);
    clock.advance(2 * MINUTE);
    const again = await Promise.all(Array.from({ length: 5 }, () => client.getCustomerAccounts(result.customer.id)));
    expect(again.map((a) => a.length)).toEqual(Array(5).fill(result.accounts.length));
    expect(authentications()).toBe(2);
    const renewed = sent.slice(-5).map((s) => s.token);
    expect(new Set(renewed).size).toBe(1);
    expect(renewed[0]).not.toBe(firstToken);

    // A push signed by the service's outbox reaches the listener and is verified; one signed with another key is refused.
    runtime = await openRuntime(loadConfig(env));
    const signingKey = generateSigningSecret();
    listener.signingKeys.push(signingKey);
    const transaction = { id: 20000000001, amount: -42.5, accountId: Number(result.accounts[0]!.id), customerId: Number(result.customer.id), status: 'active', description: 'Coffee', postedDate: 1795310000, transactionDate: 1795310000, createdDate: 1795310000 };
    const push = (key: string) => JSON.stringify({ event: { class: 'transaction', type: 'created', records: [{ ...transaction, description: key === signingKey ? 'Coffee' : 'Forged' }] } });
    const partnerId = printedCredentials(server.stdout()).partnerId;
    await runtime.database.kysely.transaction().execute(async (tx) => {
      for (const key of [generateSigningSecret(), signingKey]) {
        await enqueueDelivery(tx, runtime!, { kind: 'txpush', partnerId, url: listener.url, body: push(key), contentType: 'application/json', signingSecret: key });
      }
    });
    const outcomes = () => runtime!.database.kysely.selectFrom('deliveries').select(['body', 'status', 'last_status_code']).orderBy('id').execute();
    await waitFor('both deliveries answered', async () => (await outcomes()).every((d) => d.last_status_code !== null));
    expect((await outcomes()).map((d) => [d.status, d.last_status_code])).toEqual([['pending', 401], ['delivered', 200]]);
    expect(listener.pushes).toEqual([JSON.parse(push(signingKey))]);
    expect(log.filter((l) => l.startsWith('push '))).toHaveLength(1);
  });
});

describe('the client against an in-process server whose clock moves', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
  });

  it('authenticates again once when the service finds the token expired before the client\'s renewal age', async () => {
    ctx = await createTestContext();
    const baseUrl = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const credentials = await createPartner(ctx.runtime, { name: 'Acme' });
    const statuses: number[] = [];
    const client = new LedgerlinkClient({
      baseUrl,
      ...credentials,
      clock: new ManualClock(),
      fetch: async (request) => {
        const response = await fetch(request);
        statuses.push(response.status);
        return response;
      },
    });
    const customer = await client.addTestingCustomer({ username: 'expiry_check_01' });
    // Two hours and a second later on the server, no time at all on the client: the service says 10023.
    ctx.clock.advance(7201 * 1000);
    const accounts = await client.getCustomerAccounts(customer.id);
    expect(accounts).toEqual([]);
    expect(statuses).toEqual([200, 201, 401, 200, 200]);
  });

  it('links a profile that asks an MFA question, answers it, and gets the wrong answer as a typed error', async () => {
    ctx = await createTestContext();
    const client = new LedgerlinkClient({ baseUrl: await ctx.app.listen({ host: '127.0.0.1', port: 0 }), ...(await createPartner(ctx.runtime, { name: 'Acme' })) });
    const customer = await client.addTestingCustomer({ username: 'mfa_check_01' });
    const signIn = { username: 'mfa_text', password: 'mfa_text' };
    const asked = await client.addAllAccounts(customer.id, 101732, signIn);
    if (asked.status !== 'mfa') throw new Error('expected an MFA question');
    expect(asked.questions.map((q) => q.id)).toEqual(['pet']);
    expect(asked.mfaSession).not.toBe('');
    const linked = await client.addAllAccountsMfa(customer.id, 101732, asked.mfaSession, [{ id: 'pet', answer: 'Rex' }]);
    expect(linked.status === 'linked' && linked.accounts.length).toBeGreaterThan(0);
    const again = await client.addAllAccounts(customer.id, 101732, signIn);
    if (again.status !== 'mfa') throw new Error('expected an MFA question');
    await expect(client.addAllAccountsMfa(customer.id, 101732, again.mfaSession, [{ id: 'pet', answer: 'felix' }])).rejects.toMatchObject({ status: 400, code: '187' });
  });
});
