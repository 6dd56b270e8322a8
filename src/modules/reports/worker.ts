/**
 * Computing reports: a worker claims reports in progress with a lease (the row is the job), computes each with its
 * kind, and finishes it `success` or `failure` in one transaction with the callback webhook (through the outbox).
 * A worker that dies mid-way leaves its lease to lapse and another takes the report again, three times at most.
 * `runDueReports` is one pass (what tests and the sandbox call); `startReportWorker` loops it.
 */
import { randomUUID } from 'node:crypto';
import { pino, type Logger } from 'pino';
import { ServiceError } from '../../contract/errors/service-error.js';
import { enqueueDelivery } from '../../outbox/enqueue.js';
import { newEventId, partnerWebhookSecret } from '../../outbox/sign.js';
import { epochSeconds } from '../../platform/clock.js';
import type { Executor } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import { customerNow } from '../aggregation/engine.js';
import { findConsumerOfCustomer } from '../consumers/service.js';
import { findCustomer } from '../customers/repository.js';
import { findStatement } from '../statements/service.js';
import { loadReportInput, type ReportOptions } from './input.js';
import { REPORT_KINDS } from './kinds.js';
import * as repo from './repository.js';
import { seal } from './service.js';
import type { ReportRow } from './table.js';
import { onReportsDue } from './wake.js';

/** How long a worker holds a report while computing it, in seconds. */
export const REPORT_LEASE_SECONDS = 300;
/** Computations of one report before it fails for good. */
export const MAX_REPORT_ATTEMPTS = 3;

const silent = pino({ level: 'silent' });

/** How a report finished: its status and, for a failure, the error. */
type Outcome =
  | { status: 'success'; body: unknown }
  | { status: 'failure'; name: 'ReportConsumerRequired' | 'ReportNoEligibleAccounts' | 'StatementNotFound' | 'ReportComputationFailed'; message: string };

/** Computes one claimed report; a failure the partner can act on is an outcome, anything else throws. */
async function compute(runtime: Runtime, row: ReportRow): Promise<Outcome> {
  const db = runtime.database.kysely;
  const kind = REPORT_KINDS[row.type];
  const options = JSON.parse(row.options) as ReportOptions;
  const customer = await findCustomer(db, row.partner_id, Number(row.customer_id));
  // The customer was deleted after the report was asked for: its reports went with it (cascade), nothing to finish.
  if (!customer) return { status: 'failure', name: 'ReportNoEligibleAccounts', message: `Customer ${row.customer_id} no longer exists.` };
  const consumer = await findConsumerOfCustomer(runtime, row.partner_id, String(customer.id));
  if (!consumer) return { status: 'failure', name: 'ReportConsumerRequired', message: `Customer ${customer.id} no longer has a consumer.` };
  const asOf = customerNow(runtime, customer);
  const statementData = options.statementReportData;
  const input = await loadReportInput(db, customer, consumer, asOf, kind.period(options, asOf), {
    accountIds: statementData ? [String(statementData.accountId)] : options.accountIds,
    accepts: kind.accepts,
    includePending: options.includePending === true,
  });
  if (input.accounts.length === 0)
    return {
      status: 'failure',
      name: 'ReportNoEligibleAccounts',
      message: `Customer ${customer.id} no longer has a ${kind.acceptsText} account to report on.`,
    };
  if (statementData) {
    // The statement as the account has it now: its data may have changed since the report was asked for.
    const found = await findStatement(runtime, customer, statementData.accountId, statementData.statementIndex);
    if (!found)
      return {
        status: 'failure',
        name: 'StatementNotFound',
        message: `Statement not found: account ${statementData.accountId} no longer has a statement with transactions at index ${statementData.statementIndex}.`,
      };
    input.statement = { accountId: statementData.accountId, assetId: found.assetId, start: found.period.start, end: found.period.end };
  }
  return { status: 'success', body: kind.compute(input, options) };
}

/** The report-finished webhook: `{customerId, eventType: done | failed, eventId, payload}`, signed with the partner's webhook key. */
async function enqueueReportWebhook(tx: Executor, runtime: Runtime, row: ReportRow, outcome: Outcome): Promise<void> {
  if (!row.callback_url) return;
  const eventId = newEventId();
  const body = {
    customerId: String(row.customer_id),
    eventType: outcome.status === 'success' ? 'done' : 'failed',
    eventId,
    payload: {
      reportId: row.id,
      portfolioId: row.portfolio_id,
      consumerId: row.consumer_id,
      requestId: row.request_id,
      type: row.type,
      status: outcome.status,
      ...(outcome.status === 'failure' ? { code: new ServiceError(outcome.name).code, message: outcome.message } : {}),
    },
  };
  await enqueueDelivery(tx, runtime, {
    kind: 'webhook',
    partnerId: row.partner_id,
    url: row.callback_url,
    body: JSON.stringify(body),
    contentType: 'application/json',
    signingSecret: partnerWebhookSecret(runtime.keys, row.partner_id),
    eventId,
    customerId: Number(row.customer_id),
    eventType: `report.${body.eventType}`,
  });
}

async function finish(runtime: Runtime, row: ReportRow, token: string, outcome: Outcome): Promise<boolean> {
  const now = epochSeconds(runtime.clock);
  return runtime.database.kysely.transaction().execute(async (tx) => {
    const finished = await repo.finishReport(tx, row.id, token, {
      status: outcome.status,
      body_encrypted: outcome.status === 'success' ? seal(runtime, outcome.body) : null,
      error_code: outcome.status === 'failure' ? new ServiceError(outcome.name).code : null,
      error_message: outcome.status === 'failure' ? outcome.message : null,
      finished_at: now,
    });
    if (finished) await enqueueReportWebhook(tx, runtime, row, outcome);
    return finished;
  });
}

export interface ReportWorkerOptions {
  /** Names the worker in its claims; defaults to config.workerId. */
  workerId?: string;
  /** Reports claimed per pass. */
  limit?: number;
  logger?: Logger;
}

/** One pass: claims the reports waiting (up to `limit`), computes and finishes each. Returns how many it finished. */
export async function runDueReports(runtime: Runtime, options: ReportWorkerOptions = {}): Promise<number> {
  const db = runtime.database.kysely;
  const logger = options.logger ?? silent;
  const now = epochSeconds(runtime.clock);
  let finished = 0;
  for (const candidate of await repo.selectClaimableReports(db, now, options.limit ?? 10)) {
    const token = `${options.workerId ?? runtime.config.workerId}:${randomUUID()}`;
    const row = await repo.claimReport(db, candidate.id, candidate.attempts, now, now + REPORT_LEASE_SECONDS, token);
    if (!row) continue;
    let outcome: Outcome;
    try {
      outcome = await compute(runtime, row);
    } catch (err) {
      logger.error({ err, reportId: row.id, attempt: row.attempts }, 'report computation failed');
      // The lease lapses and another pass tries again, until the attempts are spent.
      if (row.attempts < MAX_REPORT_ATTEMPTS) continue;
      outcome = { status: 'failure', name: 'ReportComputationFailed', message: 'The report could not be computed.' };
    }
    if (await finish(runtime, row, token, outcome)) finished += 1;
    else logger.warn({ reportId: row.id }, 'report claim was lost before it finished');
  }
  return finished;
}

export interface ReportWorker {
  stop(): Promise<void>;
}

/**
 * Runs passes until stopped: at once, then every config.workerPollMs, and as soon as a report is asked for in this
 * process (wake.ts).
 */
export function startReportWorker(runtime: Runtime, options: ReportWorkerOptions = {}): ReportWorker {
  const logger = options.logger ?? silent;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  // A report asked for during a pass may have come after the pass looked: then the next pass starts at once.
  let asked = false;
  const stopListening = onReportsDue(() => {
    asked = true;
    wake?.();
  });
  const loop = (async () => {
    while (!stopped) {
      asked = false;
      try {
        await runDueReports(runtime, options);
      } catch (err) {
        logger.error({ err }, 'report worker pass failed');
      }
      if (stopped) break;
      if (asked) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, runtime.config.workerPollMs);
      });
      wake = undefined;
      clearTimeout(timer);
    }
  })();
  return {
    async stop() {
      stopped = true;
      stopListening();
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
