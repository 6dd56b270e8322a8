import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, type PartnerCredentials } from '../../src/modules/partners/service.js';
import { seedCustomers } from '../../src/modules/sandbox/seed.service.js';
import { clientModeEnv, runCli, startServe, type ServerProcess } from '../helpers/cli.js';
import { STORE_NEUTRAL } from '../helpers/db.js';
import { processHarness, type ProcessStore } from '../helpers/process-store.js';

describe.each(STORE_NEUTRAL)('ledgerlink export on %s', (dialect) => {
  const { openStore } = processHarness(dialect);
  let store: ProcessStore;
  let server: ServerProcess;
  let other: PartnerCredentials;
  let customerId: string;
  let accountId: string;
  let posted: number;
  const dir = mkdtempSync(join(tmpdir(), 'ledgerlink-export-'));

  /** Client mode as a partner: its credentials in the environment, no store. */
  const client = (args: string[], who: PartnerCredentials = store.partner) => runCli(['export', ...args], clientModeEnv(server.url, who));
  const direct = (args: string[]) => runCli(['export', ...args, '--data', store.data], store.env);

  beforeAll(async () => {
    store = await openStore();
    const seed = await seedCustomers(store.runtime, { partnerId: store.partnerId, plan: 'testdrive', customers: 1, profile: 'profile_01' });
    customerId = String(seed.firstCustomerId);
    const db = store.runtime.database.kysely;
    const account = await db.selectFrom('accounts').select('id').where('customer_id', '=', seed.firstCustomerId).orderBy('id').executeTakeFirstOrThrow();
    accountId = String(account.id);
    const count = await db
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('customer_id', '=', seed.firstCustomerId)
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow();
    posted = Number(count.n);
    other = await createPartner(store.runtime, { name: 'Other' });
    server = await startServe(['--data', store.data], store.env);
  }, 120_000);
  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
  });

  it('writes the same CSV file in client and direct mode, every posted transaction a row, and OFX and QIF to stdout', { timeout: 300_000 }, async () => {
    const viaService = join(dir, 'client.csv');
    const fromStore = join(dir, 'direct.csv');
    const a = await client(['--customer', customerId, '--format', 'csv', '--out', viaService]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toBe('');
    expect(a.stderr).toMatch(new RegExp(`^Wrote ${viaService.replace(/[.]/g, '\\.')} \\(CSV, \\d+ bytes\\) for partner ${store.partnerId}`, 'm'));
    const b = await direct(['--customer', customerId, '--format', 'CSV', '--out', fromStore]);
    expect(b.code, b.stderr).toBe(0);
    const csv = readFileSync(viaService, 'utf8');
    expect(readFileSync(fromStore, 'utf8')).toBe(csv);
    const rows = csv.split('\r\n').filter((l) => l !== '');
    expect(rows[0]).toMatch(/^Date,Posted Date,Account,Account ID,/);
    expect(rows).toHaveLength(posted + 1);

    const ofx = await client(['--customer', customerId, '--account', accountId, '--format', 'ofx']);
    expect(ofx.code, ofx.stderr).toBe(0);
    expect(ofx.stdout.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<?OFX OFXHEADER="200" VERSION="220"')).toBe(true);
    expect(ofx.stdout.match(/<STMTRS>|<CCSTMTRS>/g)).toHaveLength(1);
    expect(ofx.stderr).toContain(`Wrote transactions-${customerId}-${accountId}.ofx to stdout (OFX,`);

    const qif = await direct(['--customer', customerId, '--account', accountId, '--format', 'qif', '--from', '2000-01-01', '--to', '2000-01-31']);
    expect(qif.code, qif.stderr).toBe(0);
    expect(qif.stdout).toMatch(/^!Account\nN[^\n]+\nT(Bank|CCard|Oth L)\n\^\n!Type:(Bank|CCard|Oth L)\n$/);
  });

  it('refuses an unknown format as a usage mistake, and bad dates or another partner’s customer with the service’s message, leaving no file', {
    timeout: 300_000,
  }, async () => {
    const format = await client(['--customer', customerId, '--format', 'xlsx']);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('use one of csv, ofx, qif');

    const dates = await client(['--customer', customerId, '--format', 'csv', '--from', '2026-13-01']);
    expect(dates.code).toBe(1);
    expect(dates.stderr).toMatch(/^error: fromDate: give epoch seconds or a day as YYYY-MM-DD/m);

    const out = join(dir, 'theirs.csv');
    const foreign = await client(['--customer', customerId, '--format', 'csv', '--out', out], other);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/^error: .*not found/im);
    expect(existsSync(out)).toBe(false);
  });
});
