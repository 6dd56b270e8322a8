import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_NEUTRAL } from '../helpers/db.js';
import { createPartner, type PartnerCredentials } from '../../src/modules/partners/service.js';
import { seedCustomers } from '../../src/modules/sandbox/seed.service.js';
import { clientModeEnv, runCli, startServe, type ServerProcess } from '../helpers/cli.js';
import { processHarness, type ProcessStore } from '../helpers/process-store.js';

const PUBLIC_URL = 'https://ledgerlink.example.org';

describe.each(STORE_NEUTRAL)('ledgerlink simplefin on %s', (dialect) => {
  const { openStore } = processHarness(dialect);
  let store: ProcessStore;
  let server: ServerProcess;
  let other: PartnerCredentials;
  let customerId: string;
  let accountId: string;

  /** Client mode as a partner: its credentials in the environment, no store. */
  const client = (args: string[], who: PartnerCredentials = store.partner) => runCli(['simplefin', ...args], clientModeEnv(server.url, who));
  const direct = (args: string[], env: Record<string, string | undefined> = { LEDGERLINK_PUBLIC_URL: PUBLIC_URL }) =>
    runCli(['simplefin', ...args, '--data', store.data], { ...store.env, ...env });
  /** Claims a setup token at the running service (the claim URL names the public address; the path is what counts). */
  const claim = async (claimUrl: string) => {
    const res = await fetch(`${server.url}${new URL(claimUrl).pathname}`, { method: 'POST' });
    return { status: res.status, body: await res.text() };
  };
  const readAccounts = (accessUrl: string) => {
    const u = new URL(accessUrl);
    return fetch(`${server.url}/simplefin/accounts`, { headers: { authorization: `Basic ${Buffer.from(`${u.username}:${u.password}`).toString('base64')}` } });
  };

  beforeAll(async () => {
    store = await openStore();
    const seed = await seedCustomers(store.runtime, { partnerId: store.partnerId, plan: 'testdrive', customers: 1, profile: 'profile_01' });
    customerId = String(seed.firstCustomerId);
    const account = await store.runtime.database.kysely
      .selectFrom('accounts')
      .select('id')
      .where('customer_id', '=', seed.firstCustomerId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    accountId = String(account.id);
    other = await createPartner(store.runtime, { name: 'Other' });
    server = await startServe(['--data', store.data], { ...store.env, LEDGERLINK_PUBLIC_URL: PUBLIC_URL });
  }, 120_000);
  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
  });

  it('mints a token in direct mode that the service claims, and lists and revokes the access in client mode', { timeout: 300_000 }, async () => {
    const minted = await direct(['token', '--customer', customerId, '--json']);
    expect(minted.code, minted.stderr).toBe(0);
    const token = JSON.parse(minted.stdout);
    expect(Object.keys(token).sort()).toEqual(['claimUrl', 'expiresAt', 'setupToken']);
    expect(Buffer.from(token.setupToken, 'base64').toString()).toBe(token.claimUrl);
    expect(token.claimUrl.startsWith(`${PUBLIC_URL}/simplefin/claim/`)).toBe(true);
    const claimed = await claim(token.claimUrl);
    expect(claimed.status, claimed.body).toBe(200);
    expect((await readAccounts(claimed.body)).status).toBe(200);

    const throughService = await client(['accesses', '--customer', customerId, '--json']);
    expect(throughService.code, throughService.stderr).toBe(0);
    const onStore = await direct(['accesses', '--customer', customerId, '--json']);
    expect(JSON.parse(throughService.stdout)).toEqual(JSON.parse(onStore.stdout));
    const [access] = JSON.parse(onStore.stdout).accesses;
    expect(access).toMatchObject({ customerId, requests: 1, requestsToday: 1, dailyBudget: 24 });
    const text = await client(['accesses', '--customer', customerId]);
    expect(text.stdout).toContain(`${access.id}  active`);
    expect(text.stdout).toContain('all accounts');

    const revoked = await client(['revoke', '--customer', customerId, access.id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`Revoked SimpleFIN access ${access.id}`);
    expect((await readAccounts(claimed.body)).status).toBe(403);
    const after = JSON.parse((await direct(['accesses', '--customer', customerId, '--json'])).stdout);
    expect(after.accesses[0].revokedDate).toEqual(expect.any(Number));
  });

  it('mints a token for some accounts in client mode, printing the token alone on stdout without --json', { timeout: 300_000 }, async () => {
    const minted = await client(['token', '--customer', customerId, '--account', accountId]);
    expect(minted.code, minted.stderr).toBe(0);
    const setupToken = minted.stdout.split('\n')[0]!;
    const claimUrl = Buffer.from(setupToken, 'base64').toString();
    expect(claimUrl.startsWith(`${PUBLIC_URL}/simplefin/claim/`)).toBe(true);
    expect(minted.stdout).toContain('shown once');
    const claimed = await claim(claimUrl);
    expect(claimed.status).toBe(200);
    const accounts = (await (await readAccounts(claimed.body)).json()) as { accounts: { id: string }[] };
    expect(accounts.accounts.map((a) => a.id)).toEqual([accountId]);
    const list = await client(['accesses', '--customer', customerId]);
    expect(list.stdout).toContain(`accounts ${accountId}`);
  });

  it("refuses another partner's customer, a store without a public URL, and a missing --customer, each with its reason", { timeout: 300_000 }, async () => {
    const theirs = await client(['token', '--customer', customerId], other);
    expect(theirs.code).not.toBe(0);
    expect(theirs.stderr).toContain('Customer not found.');
    const bare = await direct(['token', '--customer', customerId], { LEDGERLINK_PUBLIC_URL: undefined });
    expect(bare.code).not.toBe(0);
    expect(bare.stderr).toContain('LEDGERLINK_PUBLIC_URL');
    const usage = await direct(['accesses']);
    expect(usage.code).not.toBe(0);
    expect(usage.stderr).toContain('simplefin accesses needs --customer ID');
  });
});
