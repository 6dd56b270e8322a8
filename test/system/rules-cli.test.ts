import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_NEUTRAL } from '../helpers/db.js';
import { createPartner, type PartnerCredentials } from '../../src/modules/partners/service.js';
import { seedCustomers } from '../../src/modules/sandbox/seed.service.js';
import { clientModeEnv, runCli, startServe, type ServerProcess } from '../helpers/cli.js';
import { processHarness, type ProcessStore } from '../helpers/process-store.js';

describe.each(STORE_NEUTRAL)('ledgerlink rules on %s', (dialect) => {
  const { openStore } = processHarness(dialect);
  let store: ProcessStore;
  let server: ServerProcess;
  let other: PartnerCredentials;
  let customerId: string;
  let description: string;

  /** Client mode as a partner: its credentials in the environment, no store. */
  const client = (args: string[], who: PartnerCredentials = store.partner) => runCli(['rules', ...args], clientModeEnv(server.url, who));
  const direct = (args: string[]) => runCli(['rules', ...args, '--partner', store.partnerId, '--data', store.data], store.env);
  const categoriesOf = async () =>
    (
      await store.runtime.database.kysely
        .selectFrom('transactions')
        .select('category')
        .where('customer_id', '=', Number(customerId))
        .where('description', '=', description)
        .execute()
    ).map((r) => r.category);

  beforeAll(async () => {
    store = await openStore();
    const seed = await seedCustomers(store.runtime, { partnerId: store.partnerId, plan: 'testdrive', customers: 1, profile: 'profile_01' });
    customerId = String(seed.firstCustomerId);
    const row = await store.runtime.database.kysely
      .selectFrom('transactions')
      .select('description')
      .where('customer_id', '=', seed.firstCustomerId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    description = row.description;
    other = await createPartner(store.runtime, { name: 'Other' });
    server = await startServe(['--data', store.data], store.env);
  }, 120_000);
  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
  });

  it('adds, lists, applies and removes a rule in direct mode, and the service sees the same rules', { timeout: 300_000 }, async () => {
    const added = await direct([
      'add',
      '--if',
      `description:equals:${description}`,
      '--set',
      'category=Gift',
      '--set',
      'memo=from the CLI',
      '--name',
      'gift',
      '--json',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const rule = JSON.parse(added.stdout);
    expect(rule).toMatchObject({ name: 'gift', position: 0, conditions: [{ field: 'description', operator: 'equals', value: description }] });

    const onStore = await direct(['list', '--json']);
    const throughService = await client(['list', '--json']);
    expect(throughService.code, throughService.stderr).toBe(0);
    expect(JSON.parse(throughService.stdout)).toEqual(JSON.parse(onStore.stdout));
    expect(JSON.parse(onStore.stdout).rules.map((r: { id: number }) => r.id)).toEqual([rule.id]);
    const text = await client(['list']);
    expect(text.stdout).toContain(`#${rule.id}  position 0  gift`);
    expect(text.stdout).toContain(`if description equals ${JSON.stringify(description)}`);

    const applied = await direct(['apply', '--customer', customerId, '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    const counts = JSON.parse(applied.stdout);
    expect(counts.examined).toBeGreaterThan(0);
    expect(counts.modified).toBeGreaterThan(0);
    expect(new Set(await categoriesOf())).toEqual(new Set(['Gift']));

    const removed = await client(['remove', String(rule.id)]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`Removed rule ${rule.id}`);
    const again = await client(['apply']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`: ${counts.modified} changed\\.`));
    expect(await categoriesOf()).not.toContain('Gift');
  });

  it("refuses a malformed --if as a usage mistake, a rule the service refuses with its message, and another partner's rule as unknown", {
    timeout: 300_000,
  }, async () => {
    const malformed = await direct(['add', '--if', 'colour:is:red', '--set', 'category=Gift']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('is not FIELD:OPERATOR:VALUE');

    const refused = await client(['add', '--if', 'description:matches:(a+)+$', '--set', 'category=Gift']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: .*exponential/im);

    const theirs = JSON.parse((await client(['add', '--if', 'payee:contains:x', '--set', 'payee=X', '--json'], other)).stdout);
    const foreign = await client(['remove', String(theirs.id)]);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/^error: .*not found/im);
    expect(JSON.parse((await client(['list', '--json'], other)).stdout).rules).toHaveLength(1);
  });
});
