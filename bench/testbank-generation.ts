/**
 * How long the test bank takes to produce data: the first aggregation (accounts + 180 days of transactions)
 * and "load historic transactions" (two years) for a few profiles, with fresh books each round (nothing
 * cached between rounds). Run: npx tsx bench/testbank-generation.ts
 */
import type { ConnectorContext, ConnectorSession, InstitutionConnector } from '../src/connectors/connector.js';
import { testbank } from '../src/connectors/testbank/index.js';
import { Ledger } from '../src/connectors/testbank/ledger.js';
import { TEST_PROFILES } from '../src/connectors/testbank/profiles.js';
import { transactionsBetween } from '../src/connectors/testbank/records.js';

const DAY = 86_400;
const now = Math.floor(Date.UTC(2026, 0, 15, 12) / 1000);
const ctx: ConnectorContext = { institutionId: 101732, now };
const opened = testbank.open({
  mode: 'sandbox',
  publicUrl: '',
  deriveKey: () => Buffer.alloc(32, 1),
  catalogue: { connection: async () => undefined },
  settings: {},
});
const found = opened.connectorFor(101732);
if (!found) throw new Error('no test bank connector');
const connector: InstitutionConnector = found;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function signIn(profile: string): Promise<ConnectorSession> {
  const result = await connector.authenticate(ctx, [
    { id: '101732001', value: profile },
    { id: '101732002', value: profile },
  ]);
  if (!result.ok || result.kind !== 'authenticated') throw new Error(`cannot sign in as ${profile}`);
  return result.session;
}

/** Generation alone: every transaction of every account over two years, on fresh books. */
function generateAll(profileId: string): { count: number; ms: number } {
  const spec = TEST_PROFILES.find((p) => p.id === profileId)!;
  const start = performance.now();
  const ledger = new Ledger(spec, 101732);
  let count = 0;
  for (const model of ledger.models) count += transactionsBetween(ledger, model, now - 730 * DAY, now, now).length;
  return { count, ms: performance.now() - start };
}

/** Through the connector: list accounts, then each account's transactions over `days`. */
async function aggregate(session: ConnectorSession, days: number): Promise<{ count: number; ms: number }> {
  const start = performance.now();
  const accounts = await connector.listAccounts(ctx, session);
  if (!accounts.ok) throw new Error(accounts.message);
  let count = 0;
  for (const account of accounts.value) {
    const txs = await connector.fetchTransactions(ctx, session, account.ref, now - days * DAY, now);
    if (!txs.ok) throw new Error(txs.message);
    count += txs.value.length;
  }
  return { count, ms: performance.now() - start };
}

const ROUNDS = 7;
const cold = generateAll('profile_04');
console.log(`cold start (first call in the process, JIT and caches cold): profile_04 two years, ${cold.count} tx in ${cold.ms.toFixed(1)} ms`);
console.log(`test bank generation, ${ROUNDS} rounds each, median (now = ${new Date(now * 1000).toISOString()})`);
for (const profile of ['profile_01', 'profile_02', 'profile_03', 'profile_04']) {
  generateAll(profile); // warm up the JIT
  const gen = Array.from({ length: ROUNDS }, () => generateAll(profile));
  const session = await signIn(profile);
  const first: number[] = [];
  const historic: number[] = [];
  let firstCount = 0;
  let historicCount = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const a = await aggregate(session, 180);
    const b = await aggregate(session, 730);
    first.push(a.ms);
    historic.push(b.ms);
    firstCount = a.count;
    historicCount = b.count;
  }
  const count = gen[0]!.count;
  console.log(
    `${profile}: generate 2 years ${count} tx in ${median(gen.map((g) => g.ms)).toFixed(1)} ms` +
      ` (${(count / median(gen.map((g) => g.ms))).toFixed(0)} tx/ms);` +
      ` first aggregation (accounts + 180 days, ${firstCount} tx) ${median(first).toFixed(1)} ms;` +
      ` historic (accounts + 730 days, ${historicCount} tx) ${median(historic).toFixed(1)} ms`,
  );
}
