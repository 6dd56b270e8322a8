import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIMPLEFIN_INSTITUTION_ID } from '../../src/connectors/simplefin/index.js';
import { allTransactions, type AccountJson, DAY, linkProfile, nowOf, refresh, type TransactionJson } from '../helpers/aggregation.js';
import { appOk, linkFor } from '../helpers/connect.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { reservePort } from '../helpers/listener.js';
import { mintToken } from '../helpers/simplefin-server.js';

/**
 * Two Ledgerlinks in one process: `server` holds a customer's test bank accounts and serves them over SimpleFIN on a
 * real loopback port; `client` links to it with its own SimpleFIN connector through Connect's setup-token step, and
 * must then hold exactly what the server's partner API serves.
 */
describe('one Ledgerlink reading another over SimpleFIN', () => {
  let server: TestContext;
  let client: TestContext;
  let serverPartner: TestPartner;
  let clientPartner: TestPartner;
  let serverCustomer: string;
  let serverAccounts: AccountJson[];

  beforeAll(async () => {
    const reserved = await reservePort();
    server = await createTestContext({ LEDGERLINK_PUBLIC_URL: `http://127.0.0.1:${reserved.port}` });
    await reserved.release();
    await server.app.listen({ host: '127.0.0.1', port: reserved.port });
    client = await createTestContext();
    serverPartner = await partnerWithToken(server);
    clientPartner = await partnerWithToken(client, 'production');
    serverCustomer = await addCustomer(server, serverPartner);
    await linkProfile(server, serverPartner, serverCustomer, 'profile_03');
    serverAccounts = await refresh(server, serverPartner, serverCustomer);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  /**
   * What the comparison looks at: what SimpleFIN carries of a transaction. The SimpleFIN connector takes a
   * transaction's `payee` (the server's cleaned payee name) as its description where there is one, as it does with
   * any bridge: `description` is what the client's connector makes of what the server sends.
   */
  const shape = (t: TransactionJson, accountName: string, description: unknown = t.description) => ({
    account: accountName,
    amount: t.amount,
    description,
    memo: t.memo ?? '',
    status: t.status,
    transactionDate: t.transactionDate,
    postedDate: t.postedDate,
  });
  const payeeOf = (t: TransactionJson) => (t.categorization as { normalizedPayeeName?: string } | undefined)?.normalizedPayeeName;
  const byKey = (a: { account: string; transactionDate: number; amount: number; description: unknown }, b: typeof a) =>
    a.account.localeCompare(b.account) ||
    a.transactionDate - b.transactionDate ||
    a.amount - b.amount ||
    String(a.description).localeCompare(String(b.description));

  it('links through Connect with a setup token and holds the accounts and transactions the server serves', async () => {
    expect(nowOf(client)).toBe(nowOf(server));
    const token = await mintToken(server, serverPartner, serverCustomer);
    const customerId = await addCustomer(client, clientPartner, { type: 'active' });
    const link = await linkFor(client, clientPartner, 'full', { customerId });
    await appOk(client, link, 'POST', '/session');
    const step = await appOk(client, link, 'POST', '/signin', {
      institutionId: SIMPLEFIN_INSTITUTION_ID,
      credentials: [{ id: `${SIMPLEFIN_INSTITUTION_ID}001`, value: token.setupToken }],
    });
    expect(step.step, JSON.stringify(step)).toBe('accounts');
    expect(step.accounts.length).toBe(serverAccounts.length);
    const added = await appOk(client, link, 'POST', `/signin/${step.sessionId}/accounts`, {});
    expect(added.accounts.length).toBe(serverAccounts.length);

    // The client's first refresh reads the server again (its connector keeps the sign-in's answer for a while).
    const clientAccounts = await refresh(client, clientPartner, customerId);
    expect(clientAccounts.map((a) => a.aggregationStatusCode)).toEqual(clientAccounts.map(() => 0));
    const accountView = (a: AccountJson) => ({ name: a.name, balance: a.balance, currency: a.currency });
    const sortByName = (x: { name: string }, y: { name: string }) => x.name.localeCompare(y.name);
    expect(clientAccounts.map(accountView).sort(sortByName)).toEqual(serverAccounts.map(accountView).sort(sortByName));

    // From the oldest transaction the client holds (its connector's window), the server's transactions are exactly
    // the client's.
    const now = nowOf(client);
    const window = { fromDate: now - 365 * DAY, toDate: now + DAY, includePending: true };
    const clientNames = new Map(clientAccounts.map((a) => [Number(a.id), a.name]));
    const serverNames = new Map(serverAccounts.map((a) => [Number(a.id), a.name]));
    const held = (await allTransactions(client, clientPartner, customerId, window)).map((t) => shape(t, clientNames.get(t.accountId)!)).sort(byKey);
    expect(held.length).toBeGreaterThan(10);
    const from = Math.min(...held.map((t) => t.transactionDate));
    const served = (await allTransactions(server, serverPartner, serverCustomer, { ...window, fromDate: from }))
      .map((t) => shape(t, serverNames.get(t.accountId)!, payeeOf(t) || t.description))
      .sort(byKey);
    expect(held).toEqual(served);
    expect(held.some((t) => t.status === 'pending')).toBe(true);

    // The access shows on the server, used.
    const accesses = await server.app.inject({
      method: 'GET',
      url: `/aggregation/v1/customers/${serverCustomer}/simplefin/accesses`,
      headers: serverPartner.headers,
    });
    const [access] = accesses.json().accesses;
    expect(access.requests).toBeGreaterThan(0);
    expect(access.lastUsedDate).toBe(nowOf(server));
  });
});
