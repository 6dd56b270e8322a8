import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LedgerlinkClient } from '@ledgerlink/client';
import { loadConfig } from '../../../src/main/config.js';
import { createPartner } from '../../../src/modules/partners/service.js';
import { enqueueDelivery } from '../../../src/outbox/enqueue.js';
import { generateSigningSecret } from '../../../src/outbox/sign.js';
import { openRuntime, type Runtime } from '../../../src/main/runtime.js';
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

  it('enrols, links profile_03, refreshes, pages through transactions, renews its token on its clock, subscribes and receives a verified push', async () => {
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

    // The subscription the example made: a test transaction is pushed, signed, and verified by the listener.
    expect(result.subscriptions.map((s) => s.type).sort()).toEqual(['account', 'transaction']);
    const account = result.accounts[0]!;
    const created = await client.createTxPushTestTransaction(result.customer.id, account.id, {
      amount: -4.25,
      description: 'Client test coffee',
      transactionDate: Math.floor(Date.now() / 1000),
    });
    await waitFor('the pushed transaction', () => listener.pushes.some((p) => p.event.class === 'transaction'));
    const pushed = listener.pushes.find((p) => p.event.class === 'transaction')!;
    expect(pushed.event.type).toBe('created');
    expect(pushed.event.records).toEqual([
      expect.objectContaining({ id: created.id, amount: -4.25, description: 'Client test coffee', accountId: Number(account.id) }),
    ]);
    expect(log.some((l) => /^push evt_\w+: transaction created \(1 records\)$/.test(l))).toBe(true);

    // A delivery signed with a key the listener does not know is refused (401) and never handled.
    runtime = await openRuntime(loadConfig(env));
    const pushesBefore = listener.pushes.length;
    const forged = await runtime.database.kysely.transaction().execute((tx) =>
      enqueueDelivery(tx, runtime!, {
        kind: 'txpush',
        partnerId: printedCredentials(server.stdout()).partnerId,
        url: listener.url,
        contentType: 'application/json',
        body: JSON.stringify({ ...pushed, event: { ...pushed.event, records: [{ ...pushed.event.records[0], amount: -4250 }] } }),
        signingSecret: generateSigningSecret(),
      }),
    );
    const outcome = () =>
      runtime!.database.kysely.selectFrom('deliveries').select(['status', 'last_status_code']).where('event_id', '=', forged.eventId).executeTakeFirstOrThrow();
    await waitFor('the forged delivery answered', async () => (await outcome()).last_status_code !== null);
    expect(await outcome()).toEqual({ status: 'pending', last_status_code: 401 });
    expect(listener.pushes.slice(pushesBefore).filter((p) => p.event.class === 'transaction')).toEqual([]);
  });
});

describe('the client against an in-process server whose clock moves', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
  });

  it("authenticates again once when the service finds the token expired before the client's renewal age", async () => {
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
    const client = new LedgerlinkClient({
      baseUrl: await ctx.app.listen({ host: '127.0.0.1', port: 0 }),
      ...(await createPartner(ctx.runtime, { name: 'Acme' })),
    });
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
    await expect(client.addAllAccountsMfa(customer.id, 101732, again.mfaSession, [{ id: 'pet', answer: 'felix' }])).rejects.toMatchObject({
      status: 400,
      code: '187',
    });
  });
});
