import { ServiceError } from '../../contract/errors/service-error.js';
import { epochSeconds } from '../../platform/clock.js';
import { createEngine, type Engine } from '../aggregation/engine.js';
import { finishLink, startLink } from '../aggregation/linking.service.js';
import { loadHistoricTransactions, refreshCustomerAccounts } from '../aggregation/refresh.service.js';
import { createCustomer } from '../customers/service.js';
import { enqueuePushNotifications } from '../txpush/notify.service.js';
import type { PartnerPlan } from '../partners/table.js';
import type { Database } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import * as repo from './seed.repository.js';

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

/**
 * Gives customers 2 to `customers` of `username` (the template's customer is number 1) copies of the template's
 * logins, accounts, positions and transactions, `batchSize` customers per database transaction; `onBatch` hears how
 * many customers there are after each. The last one's id, or undefined when there was none to add.
 */
export async function copyToNewCustomers(
  database: Database,
  template: repo.CustomerTemplate,
  options: {
    partnerId: string;
    type: 'testing' | 'active';
    firstName: string;
    username: (n: number) => string;
    customers: number;
    batchSize: number;
    now: number;
    onBatch?: (done: number) => void;
  },
): Promise<number | undefined> {
  let last: number | undefined;
  for (let done = 1; done < options.customers; ) {
    const count = Math.min(options.batchSize, options.customers - done);
    last = await database.kysely.transaction().execute(async (tx) => {
      const rows = Array.from({ length: count }, (_, i) => ({
        partner_id: options.partnerId,
        username: options.username(done + i + 1),
        first_name: options.firstName,
        last_name: 'Customer',
        phone: null,
        email: null,
        application_id: null,
        type: options.type,
        created_at: options.now,
        updated_at: options.now,
      }));
      const ids = await repo.insertCustomers(tx, rows);
      for (const id of ids) await repo.copyTemplate(tx, template, id);
      return ids.at(-1)!;
    });
    done += count;
    options.onBatch?.(done);
  }
  return last;
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
  const engine = createEngine(runtime, { onEventsRecorded: enqueuePushNotifications });
  const institutionId = options.institutionId ?? SEED_INSTITUTION_ID;
  const prefix = options.usernamePrefix ?? `seed_${Date.now().toString(36)}`;
  const username = (n: number) => `${prefix}_${String(n).padStart(7, '0')}`;
  const batchSize = options.batchSize ?? 200;
  try {
    const templateId = await linkTemplate(engine, options, username(1), institutionId);
    if (options.transactionsPerCustomer !== undefined) await repo.keepMostRecentTransactions(db(engine), templateId, options.transactionsPerCustomer);
    const { template, transactions: perCustomer } = await repo.readTemplate(db(engine), templateId);

    options.onProgress?.({ customers: 1, total: options.customers, transactions: perCustomer });
    const lastCustomerId =
      (await copyToNewCustomers(runtime.database, template, {
        partnerId: options.partnerId,
        type: 'testing',
        firstName: 'Seeded',
        username,
        customers: options.customers,
        batchSize,
        now: epochSeconds(runtime.clock),
        onBatch: (done) => options.onProgress?.({ customers: done, total: options.customers, transactions: done * perCustomer }),
      })) ?? templateId;
    await repo.settleAfterBulkLoad(runtime.database);
    return {
      partnerId: options.partnerId,
      customers: options.customers,
      firstCustomerId: templateId,
      lastCustomerId,
      accountsPerCustomer: template.accounts.length,
      transactionsPerCustomer: perCustomer,
      transactions: options.customers * perCustomer,
    };
  } finally {
    await engine.idle();
  }
}
