import type { Executor } from '../../platform/db/database.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { epochSeconds } from '../../platform/clock.js';
import { createEngine, type Engine } from '../aggregation/engine.js';
import { finishLink, startLink } from '../aggregation/linking.service.js';
import { loadHistoricTransactions, refreshCustomerAccounts } from '../aggregation/refresh.service.js';
import { createCustomer } from '../customers/service.js';
import type { PartnerPlan } from '../partners/table.js';
import type { Runtime } from '../../platform/dependencies.js';

/** The test bank institution seeded customers link at unless told otherwise. */
export const SEED_INSTITUTION_ID = 101732;

export interface SeedOptions {
  partnerId: string;
  plan: PartnerPlan;
  /** How many customers to add. */
  customers: number;
  /** The test profile every customer signs in with (profile_01 ... ; profiles that ask for MFA are refused). */
  profile: string;
  institutionId?: number;
  /** Also load each account's full history (about two years) instead of the initial 180 days. */
  history?: boolean;
  /**
   * Keep only each customer's N most recent transactions (the template's others are removed before copying), to
   * size a data set: 100,000 customers with 100 each make 10 million.
   */
  transactionsPerCustomer?: number;
  /** Usernames are `<prefix>_<n>`; defaults to `seed_<time in base 36>`, so runs never collide. */
  usernamePrefix?: string;
  /** Customers copied per database transaction. */
  batchSize?: number;
  /** Called after the template customer and after every batch. */
  onProgress?: (progress: SeedProgress) => void;
}

export interface SeedProgress {
  customers: number;
  total: number;
  transactions: number;
}

export interface SeedResult {
  partnerId: string;
  customers: number;
  firstCustomerId: number;
  lastCustomerId: number;
  accountsPerCustomer: number;
  transactionsPerCustomer: number;
  transactions: number;
}

type Row = Record<string, unknown>;

function db(engine: Engine) {
  return engine.runtime.database.kysely;
}

/** Links the first customer for real: sign-in, account selection, initial aggregation, and history if asked. */
async function linkTemplate(engine: Engine, options: SeedOptions, username: string, institutionId: number): Promise<number> {
  const customer = await createCustomer(engine.runtime, { partnerId: options.partnerId, plan: options.plan }, 'testing', {
    username,
    firstName: 'Seeded',
    lastName: 'Customer',
  });
  const customerId = String(customer.id);
  const step = await startLink(engine, {
    partnerId: options.partnerId,
    customerId,
    institutionId,
    credentials: [
      { id: `${institutionId}001`, value: options.profile },
      { id: `${institutionId}002`, value: options.profile },
    ],
  });
  if (step.step === 'mfa')
    throw new ServiceError('BadRequest', `Profile ${options.profile} asks for MFA at sign-in; seed with a profile that does not (see docs/test-profiles.md).`);
  if (step.step === 'failed') throw new ServiceError('BadRequest', `Profile ${options.profile} cannot sign in: ${step.code} ${step.message}`);
  if (step.step !== 'accounts') throw new ServiceError('BadRequest', `Institution ${institutionId} signs in with OAuth; seed at a credential institution.`);
  await finishLink(engine, { partnerId: options.partnerId, sessionId: step.sessionId });
  const accounts = await refreshCustomerAccounts(engine, options.partnerId, customerId);
  if (options.history) {
    for (const a of accounts) {
      const outcome = await loadHistoricTransactions(engine, options.partnerId, customerId, a.id);
      if (!outcome.done)
        throw new ServiceError('BadRequest', `Profile ${options.profile} asks for MFA to load history; seed without --history or with another profile.`);
    }
  }
  return customer.id;
}

const without = (row: Row, ...keys: string[]): Row => Object.fromEntries(Object.entries(row).filter(([k]) => !keys.includes(k)));

/** Copies the template customer's logins, accounts, positions and transactions to one new customer. */
async function copyTemplate(
  tx: Executor,
  template: { logins: Row[]; accounts: Row[]; positions: Row[]; transactionColumns: string[] },
  customerId: number,
): Promise<void> {
  const loginIds = new Map<number, number>();
  for (const login of template.logins) {
    const { id } = await tx
      .insertInto('institution_logins')
      .values({ ...without(login, 'id'), customer_id: customerId, refresh_lease_until: null, refresh_lease_owner: null } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    loginIds.set(login.id as number, id);
  }
  for (const account of template.accounts) {
    const { id } = await tx
      .insertInto('accounts')
      .values({ ...without(account, 'id'), customer_id: customerId, institution_login_id: loginIds.get(account.institution_login_id as number)! } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const positions = template.positions.filter((p) => p.account_id === account.id).map((p) => ({ ...without(p, 'id'), account_id: id }));
    if (positions.length > 0)
      await tx
        .insertInto('positions')
        .values(positions as never)
        .execute();
    const columns = template.transactionColumns;
    if (columns.length === 0) continue;
    await tx
      .insertInto('transactions')
      .columns(columns as never)
      .expression(
        (eb) =>
          eb
            .selectFrom('transactions')
            .select(columns.map((c) => (c === 'customer_id' ? eb.val(customerId).as(c) : c === 'account_id' ? eb.val(id).as(c) : eb.ref(c as 'ref'))) as never)
            .where('account_id', '=', account.id as number)
            .orderBy('id') as never,
      )
      .execute();
  }
}

/** Removes all but the `keep` most recent transactions of a customer (newest by date, then id). */
async function keepMostRecent(database: Executor, customerId: number, keep: number): Promise<void> {
  const kept = database
    .selectFrom('transactions')
    .select('id')
    .where('customer_id', '=', customerId)
    .orderBy('effective_date', 'desc')
    .orderBy('id', 'desc')
    .limit(keep);
  await database.deleteFrom('transactions').where('customer_id', '=', customerId).where('id', 'not in', kept).execute();
}

/**
 * Adds `customers` testing customers that have all linked the same test profile. The first links through the
 * engine like any customer (sign-in, initial aggregation, history when asked); the others receive copies of its
 * logins, accounts, positions and transactions in batches, which is what linking the same deterministic profile
 * would store, thousands of times faster. Every customer can afterwards be refreshed like any other.
 */
export async function seedCustomers(runtime: Runtime, options: SeedOptions): Promise<SeedResult> {
  if (!Number.isInteger(options.customers) || options.customers < 1)
    throw new ServiceError('InvalidParameter', 'Invalid parameter (customers): a positive whole number');
  const keep = options.transactionsPerCustomer;
  if (keep !== undefined && (!Number.isInteger(keep) || keep < 0))
    throw new ServiceError('InvalidParameter', 'Invalid parameter (transactionsPerCustomer): a whole number, 0 or more');
  const engine = createEngine(runtime);
  const institutionId = options.institutionId ?? SEED_INSTITUTION_ID;
  const prefix = options.usernamePrefix ?? `seed_${Date.now().toString(36)}`;
  const username = (n: number) => `${prefix}_${String(n).padStart(7, '0')}`;
  const batchSize = options.batchSize ?? 200;
  try {
    const templateId = await linkTemplate(engine, options, username(1), institutionId);
    if (options.transactionsPerCustomer !== undefined) await keepMostRecent(db(engine), templateId, options.transactionsPerCustomer);
    const logins = (await db(engine)
      .selectFrom('institution_logins')
      .selectAll()
      .where('customer_id', '=', templateId)
      .orderBy('id')
      .execute()) as unknown as Row[];
    const accounts = (await db(engine).selectFrom('accounts').selectAll().where('customer_id', '=', templateId).orderBy('id').execute()) as unknown as Row[];
    const positions =
      accounts.length === 0
        ? []
        : ((await db(engine)
            .selectFrom('positions')
            .selectAll()
            .where(
              'account_id',
              'in',
              accounts.map((a) => a.id as number),
            )
            .orderBy('id')
            .execute()) as unknown as Row[]);
    const sample = await db(engine).selectFrom('transactions').selectAll().where('customer_id', '=', templateId).limit(1).executeTakeFirst();
    const perCustomer = Number(
      (
        await db(engine)
          .selectFrom('transactions')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('customer_id', '=', templateId)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const transactionColumns = sample ? Object.keys(sample).filter((c) => c !== 'id') : [];
    const template = { logins, accounts, positions, transactionColumns };

    let done = 1;
    let lastCustomerId = templateId;
    options.onProgress?.({ customers: done, total: options.customers, transactions: perCustomer });
    const now = epochSeconds(runtime.clock);
    while (done < options.customers) {
      const count = Math.min(batchSize, options.customers - done);
      lastCustomerId = await db(engine)
        .transaction()
        .execute(async (tx) => {
          const rows = Array.from({ length: count }, (_, i) => ({
            partner_id: options.partnerId,
            username: username(done + i + 1),
            first_name: 'Seeded',
            last_name: 'Customer',
            phone: null,
            email: null,
            application_id: null,
            type: 'testing' as const,
            created_at: now,
            updated_at: now,
          }));
          const ids = await tx.insertInto('customers').values(rows).returning('id').execute();
          for (const { id } of ids) await copyTemplate(tx, template, id);
          return ids.at(-1)!.id;
        });
      done += count;
      options.onProgress?.({ customers: done, total: options.customers, transactions: done * perCustomer });
    }
    return {
      partnerId: options.partnerId,
      customers: options.customers,
      firstCustomerId: templateId,
      lastCustomerId,
      accountsPerCustomer: accounts.length,
      transactionsPerCustomer: perCustomer,
      transactions: options.customers * perCustomer,
    };
  } finally {
    await engine.idle();
  }
}
