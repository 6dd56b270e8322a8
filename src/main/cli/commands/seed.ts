import { findPartnerById } from '../../../modules/partners/repository.js';
import { createPartner, listPartners } from '../../../modules/partners/service.js';
import { seedCustomers } from '../../../modules/sandbox/seed.service.js';
import { dataOptions, parse, positiveInteger, UsageError } from '../args.js';
import { withRuntime } from '../store.js';
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
  const result = await withRuntime(
    values.data,
    async (runtime) => {
      let partnerId = values.partner;
      let created: { partnerId: string; partnerSecret: string; appKey: string } | undefined;
      let plan: 'testdrive' | 'production' = 'testdrive';
      let partnerName = 'Seeded partner';
      if (partnerId) {
        const row = await findPartnerById(runtime.database.kysely, partnerId);
        if (!row)
          throw new UsageError(`no partner ${partnerId}`, 'list partners with `ledgerlink partner list`, or create one with `ledgerlink partner create`');
        plan = row.plan;
        partnerName = row.name;
      } else {
        // The only partner of the store when there is one; a new one for an empty store; several: the caller says which.
        const partners = await listPartners(runtime);
        if (partners.length > 1) {
          const shown = partners.slice(0, 10).map((p) => `${p.partnerId} (${p.name})`);
          throw new UsageError(
            `this data store has ${partners.length} partners: say which with --partner ID`,
            `partners: ${shown.join(', ')}${partners.length > shown.length ? ', … (`ledgerlink partner list` shows all)' : ''}`,
          );
        }
        if (partners.length === 1) {
          partnerId = partners[0]!.partnerId;
          plan = partners[0]!.plan;
          partnerName = partners[0]!.name;
        } else {
          created = await createPartner(runtime, { name: partnerName });
          partnerId = created.partnerId;
        }
      }
      const partnerSource: 'option' | 'only' | 'created' = values.partner ? 'option' : created ? 'created' : 'only';
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
      return { ...outcome, partnerName, partnerSource, ...(created ? { partnerSecret: created.partnerSecret, appKey: created.appKey } : {}) };
    },
    { create: true },
  );
  if (values.json) {
    printJson(result);
    return;
  }
  const how = { option: 'given with --partner', only: 'the only partner of this data store', created: 'created now: the data store had none' }[
    result.partnerSource
  ];
  print(
    [
      `Partner ${result.partnerId} (${result.partnerName}): ${how}.`,
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
