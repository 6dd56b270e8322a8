/**
 * A partner app in a few dozen lines: enrols a testing customer, links test profile profile_03 without a browser,
 * refreshes, pages through transactions, subscribes a listener to TxPUSH notifications and verifies every push.
 * Run directly, it then adds a test transaction, which the service pushes to the listener.
 *
 *   LEDGERLINK_URL=http://127.0.0.1:8080 APP_KEY=... PARTNER_ID=... PARTNER_SECRET=... \
 *     npx tsx --conditions=ledgerlink-source packages/client/examples/partner-app.ts
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createPushListener, LedgerlinkClient, type TxPushNotification } from '@ledgerlink/client';

const FINBANK_PROFILES_A = 102105;
const DAY = 86_400;

/** A listener for pushes: answers the verification GET and keeps every push whose signature checks out. */
export async function startPushListener(port = 3000, log: (line: string) => void = console.log) {
  const signingKeys: string[] = [];
  const pushes: TxPushNotification[] = [];
  const handler = createPushListener({
    signingKeys: () => signingKeys,
    onMessage: ({ id, body }) => {
      const push = JSON.parse(body) as TxPushNotification;
      pushes.push(push);
      log(`push ${id}: ${push.event.class} ${push.event.type} (${push.event.records.length} records)`);
    },
  });
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/txpush`;
  return { url, signingKeys, pushes, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The partner flow, from a new customer to a subscription for pushes on its first account. */
export async function runPartnerApp(client: LedgerlinkClient, listener: { url: string; signingKeys: string[] }, log: (line: string) => void = console.log) {
  const customer = await client.addTestingCustomer({ username: `partner_app_${Date.now()}`, firstName: 'Ada' });
  log(`customer ${customer.id} (${customer.username})`);

  const link = await client.addAllAccounts(customer.id, FINBANK_PROFILES_A, { username: 'profile_03', password: 'profile_03' });
  if (link.status !== 'linked') throw new Error(`the institution asks: ${link.questions.map((q) => q.text).join('; ')}`);
  log(`linked ${link.accounts.length} accounts`);

  // The initial aggregation: transactions can be read only after it.
  const accounts = await client.refreshCustomerAccounts(customer.id);
  for (const a of accounts) log(`  ${a.id} ${a.type.padEnd(12)} ${a.name}: ${a.balance} ${a.currency}`);

  const toDate = Math.floor(Date.now() / 1000);
  let pages = 0;
  let transactions = 0;
  for await (const page of client.getAllCustomerTransactions(customer.id, { fromDate: toDate - 90 * DAY, toDate, limit: 100, includePending: true })) {
    pages++;
    transactions += page.displaying;
  }
  log(`${transactions} transactions of the last 90 days in ${pages} pages`);

  // Pushes for the first account: the service verifies the listener, then signs each push with these keys.
  const subscriptions = await client.subscribeToTxPushNotifications(customer.id, accounts[0]!.id, listener.url);
  listener.signingKeys.push(...subscriptions.map((s) => s.signingKey));
  log(`subscribed ${listener.url} to ${subscriptions.map((s) => s.type).join(' and ')} pushes of ${accounts[0]!.id}`);

  return { customer, accounts, pages, transactions, subscriptions };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const env = (name: string) => process.env[name] ?? (console.error(`set ${name}`), process.exit(2));
  const client = new LedgerlinkClient({
    baseUrl: env('LEDGERLINK_URL'),
    appKey: env('APP_KEY'),
    partnerId: env('PARTNER_ID'),
    partnerSecret: env('PARTNER_SECRET'),
  });
  const listener = await startPushListener(Number(process.env.LISTENER_PORT ?? 3000));
  const { customer, accounts } = await runPartnerApp(client, listener);
  // A test transaction makes the service push to the listener at once.
  await client.createTxPushTestTransaction(customer.id, accounts[0]!.id, {
    amount: -4.25,
    description: 'Coffee',
    transactionDate: Math.floor(Date.now() / 1000),
  });
  console.log(`listening for pushes on ${listener.url}; Ctrl-C to stop`);
}
