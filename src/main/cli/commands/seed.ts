import { findPartnerById } from '../../../modules/partners/repository.js';
import { createPartner } from '../../../modules/partners/service.js';
import { seedCustomers } from '../../../modules/sandbox/seed.service.js';
import { dataOptions, parse, positiveInteger, UsageError, withRuntime } from '../args.js';
import { progressBar } from '../progress.js';
import { print, printJson } from '../../../platform/terminal-text.js';

const USAGE = 'ledgerlink seed --customers N [--profile profile_03] [--partner ID] [--institution 101732] [--history] [--transactions N] [--json] [--data DIR]';

/** Most customers one run adds. */
const MAX_SEED_CUSTOMERS = 1_000_000;

/**
 * `ledgerlink seed`: adds N testing customers that have linked a test profile, with their accounts and
 * transactions, for demos and load tests. Shows a progress bar on stderr.
 */
export async function seed(argv: string[]): Promise<void> {
  const { values } = parse(
    argv,
    {
      ...dataOptions,
      customers: { type: 'string' },
      profile: { type: 'string', default: 'profile_03' },
      partner: { type: 'string' },
      institution: { type: 'string' },
      history: { type: 'boolean', default: false },
      transactions: { type: 'string' },
    },
    USAGE,
  );
  const customers = positiveInteger('--customers', values.customers, USAGE);
  if (customers === undefined) throw new UsageError('seed needs --customers N', `usage: ${USAGE}`);
  if (customers > MAX_SEED_CUSTOMERS) throw new UsageError(`--customers must be at most ${MAX_SEED_CUSTOMERS.toLocaleString('en-US')}`, `usage: ${USAGE}`);
  const institutionId = positiveInteger('--institution', values.institution, USAGE);
  const transactionsPerCustomer = positiveInteger('--transactions', values.transactions, USAGE);
  const result = await withRuntime(values.data, async (runtime) => {
    let partnerId = values.partner;
    let created: { partnerId: string; partnerSecret: string; appKey: string } | undefined;
    let plan: 'testdrive' | 'production' = 'testdrive';
    if (partnerId) {
      const row = await findPartnerById(runtime.database.kysely, partnerId);
      if (!row) throw new UsageError(`no partner ${partnerId}`, 'list partners with the dashboard, or create one with `ledgerlink partner create`');
      plan = row.plan;
    } else {
      created = await createPartner(runtime, { name: 'Seeded partner' });
      partnerId = created.partnerId;
    }
    const bar = progressBar('seeding', customers);
    const outcome = await seedCustomers(runtime, {
      partnerId,
      plan,
      customers,
      profile: values.profile,
      history: values.history,
      ...(institutionId !== undefined ? { institutionId } : {}),
      ...(transactionsPerCustomer !== undefined ? { transactionsPerCustomer } : {}),
      onProgress: (p) => bar.update(p.customers, `${p.transactions.toLocaleString('en-US')} transactions`),
    });
    bar.finish(`${outcome.transactions.toLocaleString('en-US')} transactions`);
    return { ...outcome, ...(created ? { partnerSecret: created.partnerSecret, appKey: created.appKey } : {}) };
  });
  if (values.json) {
    printJson(result);
    return;
  }
  print(
    [
      `Seeded ${result.customers.toLocaleString('en-US')} customers of partner ${result.partnerId} (ids ${result.firstCustomerId} to ${result.lastCustomerId}),`,
      `${result.accountsPerCustomer} accounts and ${result.transactionsPerCustomer.toLocaleString('en-US')} transactions each, ${result.transactions.toLocaleString('en-US')} transactions in all.`,
      ...(result.partnerSecret
        ? [
            'New partner credentials (the secret is not shown again):',
            `  partnerId     ${result.partnerId}`,
            `  partnerSecret ${result.partnerSecret}`,
            `  appKey        ${result.appKey}`,
          ]
        : []),
    ].join('\n'),
  );
}
