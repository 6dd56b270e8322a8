/**
 * Transactions list benchmark: GET /aggregation/v3/customers/{id}/transactions (limit 25) for a heavy customer,
 * first with only that customer's rows, then with the table filled to a million rows of other customers.
 *
 *   npx tsx bench/transactions.ts [--rows 1000000] [--iterations 300] [--dialect sqlite|postgres|both] [--write]
 *
 * The customer links profile_04 (test bank) and loads two years of history for every account (20,000+
 * transactions). Each query kind is timed over --iterations requests through app.inject (the whole request:
 * routing, auth, validation, queries, serialisation; no network): the first page and a page in the middle, in
 * JSON and in XML. Filler rows go to other customers' accounts in large INSERT ... SELECT statements. The query
 * plans of the page and count queries are printed (EXPLAIN) to show they use the (customer_id, effective_date, id,
 * status) index. --write puts the table into docs/benchmarks.md. PostgreSQL uses TEST_DATABASE_URL (a throwaway schema).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../src/main/app.js';
import { loadConfig } from '../src/main/config.js';
import type { Database, DialectName } from '../src/platform/db/database.js';
import { ensureInstitutionCatalog } from '../src/modules/institutions/seed.service.js';
import { createPartner } from '../src/modules/partners/service.js';
import { ManualClock } from '../src/platform/clock.js';
import { keysFrom } from '../src/platform/keys.js';
import type { Runtime } from '../src/main/runtime.js';
import { machineLine, writeBenchSection } from './lib/report.js';
import { openStore } from './lib/store.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    iterations: { type: 'string', default: '300' },
    dialect: { type: 'string', default: 'both' },
    write: { type: 'boolean', default: false },
  },
});
const ROWS = Number(values.rows);
const ITERATIONS = Number(values.iterations);
const FILLER_PER_ACCOUNT = 5000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Timing {
  label: string;
  p50: number;
  p99: number;
}

interface Result {
  dialect: DialectName;
  customerRows: number;
  tableRows: number;
  fillSeconds: number;
  before: Timing[];
  after: Timing[];
  plans: string[];
}

async function explain(database: Database, customerId: number, now: number): Promise<string[]> {
  const page = sql`select * from transactions where id in (select id from transactions where customer_id = ${customerId} and effective_date >= ${0} and effective_date <= ${now} and status = 'active' order by effective_date desc, id desc limit 25 offset 10000) order by effective_date desc, id desc`;
  const count = sql`select count(*) from transactions where customer_id = ${customerId} and effective_date >= ${0} and effective_date <= ${now} and status = 'active'`;
  const out: string[] = [];
  for (const [name, q] of [
    ['page', page],
    ['count', count],
  ] as const) {
    if (database.dialect === 'postgres') {
      const rows = (await sql<{ 'QUERY PLAN': string }>`explain ${q}`.execute(database.kysely)).rows;
      out.push(`${name}: ${rows.map((r) => r['QUERY PLAN'].trim()).join(' / ')}`);
    } else {
      const rows = (await sql<{ detail: string }>`explain query plan ${q}`.execute(database.kysely)).rows;
      out.push(`${name}: ${rows.map((r) => r.detail).join(' / ')}`);
    }
  }
  return out;
}

async function run(dialect: DialectName): Promise<Result> {
  const store = await openStore(dialect);
  try {
    const { database } = store;
    await ensureInstitutionCatalog(database);
    const clock = new ManualClock();
    const config = loadConfig({ LEDGERLINK_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-bench-data-')) });
    const runtime: Runtime = { config, database, clock, keys: keysFrom(randomBytes(32)) };
    const app = await buildApp(runtime, { logger: false });
    await app.ready();
    const creds = await createPartner(runtime, { name: 'Bench', plan: 'testdrive' });
    const auth = await app.inject({
      method: 'POST',
      url: '/aggregation/v2/partners/authentication',
      headers: { 'service-app-key': creds.appKey },
      payload: { partnerId: creds.partnerId, partnerSecret: creds.partnerSecret },
    });
    const headers = { 'service-app-key': creds.appKey, 'service-app-token': auth.json<{ token: string }>().token };
    const customer = await app.inject({ method: 'POST', url: '/aggregation/v2/customers/testing', headers, payload: { username: 'bench_customer' } });
    const customerId = customer.json<{ id: string }>().id;
    process.stderr.write(`${dialect}: linking profile_04 and loading its history...\n`);
    const linked = await app.inject({
      method: 'POST',
      url: `/aggregation/v1/customers/${customerId}/institutions/101732/accounts/addall`,
      headers,
      payload: {
        credentials: [
          { id: '101732001', value: 'profile_04' },
          { id: '101732002', value: 'profile_04' },
        ],
      },
    });
    for (const account of linked.json<{ accounts: { id: string }[] }>().accounts) {
      const res = await app.inject({
        method: 'POST',
        url: `/aggregation/v1/customers/${customerId}/accounts/${account.id}/transactions/historic`,
        headers,
        payload: {},
      });
      if (res.statusCode !== 204) throw new Error(`historic load failed: ${res.statusCode} ${res.body}`);
    }
    const now = Math.floor(clock.now() / 1000);
    const count = async () =>
      Number(
        (
          await database.kysely
            .selectFrom('transactions')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const customerRows = await count();
    // Statistics (and, on PostgreSQL, the visibility map index-only scans rely on), as autovacuum would leave them.
    const analyze = () => (dialect === 'postgres' ? sql`vacuum analyze transactions` : sql`analyze`).execute(database.kysely);
    await analyze();

    const measure = async (): Promise<Timing[]> => {
      const first = await app.inject({ url: `/aggregation/v3/customers/${customerId}/transactions?fromDate=0&toDate=${now}`, headers });
      const found = first.json<{ found: number }>().found;
      const deep = Math.floor(found / 2);
      const kinds = [
        ['first page, JSON', `start=1`, 'application/json'],
        [`page at ${deep.toLocaleString('en-US')}, JSON`, `start=${deep}`, 'application/json'],
        ['first page, XML', `start=1`, 'application/xml'],
        [`page at ${deep.toLocaleString('en-US')}, XML`, `start=${deep}`, 'application/xml'],
      ] as const;
      const out: Timing[] = [];
      for (const [label, query, accept] of kinds) {
        const url = `/aggregation/v3/customers/${customerId}/transactions?fromDate=0&toDate=${now}&limit=25&${query}`;
        for (let i = 0; i < 20; i++) await app.inject({ url, headers: { ...headers, accept } });
        const times: number[] = [];
        for (let i = 0; i < ITERATIONS; i++) {
          const t0 = performance.now();
          const res = await app.inject({ url, headers: { ...headers, accept } });
          times.push(performance.now() - t0);
          if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
        }
        times.sort((a, b) => a - b);
        out.push({ label, p50: percentile(times, 50), p99: percentile(times, 99) });
      }
      return out;
    };
    process.stderr.write(`${dialect}: ${customerRows} transactions; measuring...\n`);
    const before = await measure();

    process.stderr.write(`${dialect}: filling the table to ${ROWS} rows...\n`);
    const t0 = performance.now();
    const db = database.kysely;
    const partner = await createPartner(runtime, { name: 'Filler', plan: 'testdrive' });
    for (let filled = await count(), n = 0; filled < ROWS; n++) {
      const rows = Math.min(FILLER_PER_ACCOUNT, ROWS - filled);
      const c = await db
        .insertInto('customers')
        .values({
          partner_id: partner.partnerId,
          username: `filler_${n}`,
          first_name: null,
          last_name: null,
          phone: null,
          email: null,
          application_id: null,
          type: 'testing',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const login = await db
        .insertInto('institution_logins')
        .values({
          partner_id: partner.partnerId,
          customer_id: c.id,
          institution_id: 101732,
          session_encrypted: 'v1.x.x.x',
          credentials_encrypted: null,
          aggregation_status_code: 0,
          aggregation_status_message: null,
          aggregation_attempt_at: null,
          aggregation_success_at: null,
          refresh_lease_until: null,
          refresh_lease_owner: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const account = await db
        .insertInto('accounts')
        .values({
          partner_id: partner.partnerId,
          customer_id: c.id,
          institution_login_id: login.id,
          institution_id: 101732,
          ref: 'filler',
          number: '1',
          account_number_display: '1',
          real_account_number_last4: null,
          name: 'Filler',
          account_nickname: 'Filler',
          type: 'checking',
          status: 'active',
          currency: 'USD',
          balance: 0,
          balance_date: now,
          market_segment: 'personal',
          display_position: 1,
          fi_account_status: 'OPEN',
          detail: null,
          aggregation_status_code: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const span = 730 * 86_400;
      const insert =
        dialect === 'postgres'
          ? sql`insert into transactions (partner_id, customer_id, account_id, ref, effective_date, status, amount, description, type, transaction_date, created_at, updated_at)
            select ${partner.partnerId}, ${c.id}, ${account.id}, 'f' || g, ${now - span} + (g * 7919) % ${span}, case when g % 50 = 0 then 'pending' else 'active' end,
                   -((g % 1000) / 10.0), 'FILLER PURCHASE', 'debit', ${now - span} + (g * 7919) % ${span}, ${now}, ${now}
            from generate_series(1, ${rows}) g`
          : sql`with recursive s(g) as (select 1 union all select g + 1 from s where g < ${rows})
            insert into transactions (partner_id, customer_id, account_id, ref, effective_date, status, amount, description, type, transaction_date, created_at, updated_at)
            select ${partner.partnerId}, ${c.id}, ${account.id}, 'f' || g, ${now - span} + (g * 7919) % ${span}, case when g % 50 = 0 then 'pending' else 'active' end,
                   -((g % 1000) / 10.0), 'FILLER PURCHASE', 'debit', ${now - span} + (g * 7919) % ${span}, ${now}, ${now}
            from s`;
      await insert.execute(db);
      filled += rows;
      if (n % 20 === 0) process.stderr.write(`  ${filled} rows\n`);
    }
    const fillSeconds = (performance.now() - t0) / 1000;
    await analyze();
    const tableRows = await count();
    const after = await measure();
    const plans = await explain(database, Number(customerId), now);
    await app.close();
    return { dialect, customerRows, tableRows, fillSeconds, before, after, plans };
  } finally {
    await store.drop();
  }
}

const dialects: DialectName[] = values.dialect === 'both' ? ['sqlite', 'postgres'] : [values.dialect as DialectName];
const results: Result[] = [];
for (const d of dialects) results.push(await run(d));

const name = (d: DialectName) => (d === 'sqlite' ? 'SQLite (file, WAL)' : 'PostgreSQL (local)');
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
const lines = [
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npx tsx bench/transactions.ts --rows ${ROWS} --iterations ${ITERATIONS}\` on ${machineLine()}; whole requests through \`app.inject\`, limit 25, fromDate 0 to now, default sort (desc), pending excluded.`,
  '',
  `| database | query | customer only: p50 / p99 | table of ${ROWS.toLocaleString('en-US')} rows: p50 / p99 |`,
  '|---|---|---|---|',
];
for (const r of results) {
  r.before.forEach((b, i) =>
    lines.push(`| ${name(r.dialect)} | ${b.label} | ${fmt(b.p50)} / ${fmt(b.p99)} | ${fmt(r.after[i]!.p50)} / ${fmt(r.after[i]!.p99)} |`),
  );
}
lines.push('');
for (const r of results) {
  lines.push(
    `${name(r.dialect)}: the customer has ${r.customerRows.toLocaleString('en-US')} transactions; the table was filled to ${r.tableRows.toLocaleString('en-US')} rows in ${r.fillSeconds.toFixed(0)} s. Plans with the full table:`,
  );
  lines.push('');
  for (const p of r.plans) lines.push(`- ${p.replace(/\|/g, '\\|')}`);
  lines.push('');
}
const table = lines.join('\n').trimEnd();
process.stdout.write(table + '\n');

if (values.write) writeBenchSection('transactions', 'Transactions list (GET v3 transactions)', table);
