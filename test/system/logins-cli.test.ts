import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_NEUTRAL } from '../helpers/db.js';
import { createPartner, type PartnerCredentials } from '../../src/modules/partners/service.js';
import { seedCustomers } from '../../src/modules/sandbox/seed.service.js';
import { clientModeEnv, runCli, startServe, type ServerProcess } from '../helpers/cli.js';
import { processHarness, type ProcessStore } from '../helpers/process-store.js';

describe.each(STORE_NEUTRAL)('ledgerlink logins list on %s', (dialect) => {
  const { openStore } = processHarness(dialect);
  let store: ProcessStore;
  let server: ServerProcess;
  let other: PartnerCredentials;
  let customerId: string;
  let loginId: number;

  /** Client mode as a partner: its credentials in the environment, no store. */
  const client = (args: string[], who: PartnerCredentials = store.partner) => runCli(['logins', 'list', ...args], clientModeEnv(server.url, who));
  const direct = (args: string[]) => runCli(['logins', 'list', ...args, '--data', store.data], store.env);

  beforeAll(async () => {
    store = await openStore();
    const seed = await seedCustomers(store.runtime, { partnerId: store.partnerId, plan: 'testdrive', customers: 1, profile: 'profile_01' });
    customerId = String(seed.firstCustomerId);
    const login = await store.runtime.database.kysely
      .selectFrom('institution_logins')
      .select('id')
      .where('customer_id', '=', seed.firstCustomerId)
      .executeTakeFirstOrThrow();
    loginId = login.id;
    other = await createPartner(store.runtime, { name: 'Other' });
    server = await startServe(['--data', store.data], store.env);
  }, 120_000);
  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
  });

  it('lists the logins of a customer with their refresh status, the same in direct and client mode', { timeout: 60_000 }, async () => {
    const onStore = await direct(['--customer', customerId, '--json']);
    expect(onStore.code, onStore.stderr).toBe(0);
    const listed = JSON.parse(onStore.stdout);
    expect(listed).toEqual({
      customerId,
      institutionLogins: [
        expect.objectContaining({
          institutionLoginId: loginId,
          customerId,
          institutionName: expect.any(String),
          source: 'testbank',
          aggregationStatusCode: 0,
          refreshSchedule: 'manual',
          consecutiveFailures: 0,
          refreshInProgress: false,
        }),
      ],
    });
    const throughService = await client(['--customer', customerId, '--json']);
    expect(throughService.code, throughService.stderr).toBe(0);
    expect(JSON.parse(throughService.stdout)).toEqual(listed);

    const text = await client(['--customer', customerId]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`Customer ${customerId}: 1 institution login`);
    expect(text.stdout).toMatch(new RegExp(`Login ${loginId}  .+ \\(institution \\d+\\), test bank`));
    expect(text.stdout).toMatch(/status +OK \(0\)/);
    expect(text.stdout).toMatch(/next refresh +none: refreshed only when asked/);
    const onStoreText = await direct(['--customer', customerId]);
    expect(onStoreText.stdout).toBe(text.stdout);
    expect(onStoreText.stderr).toContain("the customer's partner");
  });

  it("refuses another partner's customer as an unknown one, and a missing --customer as a usage mistake", { timeout: 60_000 }, async () => {
    const foreign = await client(['--customer', customerId], other);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/^error: .*not found/im);
    const unknown = await client(['--customer', '1']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.replace(/\d+/g, 'N')).toBe(foreign.stderr.replace(/\d+/g, 'N'));

    const missing = await direct([]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('logins list needs --customer ID');
    const mismatch = await direct(['--customer', customerId, '--partner', other.partnerId]);
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toContain(`belongs to partner ${store.partnerId}`);
  });
});
