/**
 * The one way what a source gave for an account is stored, whoever asked: a refresh or historic load, a sign-in
 * that saves its accounts, a statement file. The account's row is created or brought up to the source's record;
 * its transactions of the window are made to agree with the source's (transactions.service.ts); an aggregation
 * marks the account aggregated with its dates; and the events of every change are handed back, the account's
 * first, for the caller to record in the same transaction (recordEvents).
 */
import type { ConnectorAccount, ConnectorTransaction } from '../../connectors/connector.js';
import type { Executor } from '../../platform/db/database.js';
import { updateAccountRow } from './accounts.repository.js';
import { accountRecord, insertAccount, updateAccountData } from './accounts.service.js';
import { recordRefreshedBalance } from './balances.service.js';
import { dropCrossSourceDuplicates } from './dedup.service.js';
import { keepRuleSources, ruleFetchedTransactions } from '../rules/fetched.service.js';
import type { AggregationEvent } from './records.js';
import type { AccountRow, AccountUpdate, InstitutionLoginRow } from './table.js';
import { transactionDateRange } from './transactions.repository.js';
import { syncTransactions, type TransactionSyncResult } from './transactions.service.js';

/** What a source gave for one account. */
export interface FetchedAccount {
  /** The source's record of the account. */
  account: ConnectorAccount;
  /**
   * Its transactions dated in [from, to], when the source was asked for them: all of them, or, for a file stored a
   * slice at a time, this slice (`part`), with the first and last date of the whole, which the account's dates take.
   */
  transactions?: {
    list: readonly ConnectorTransaction[];
    from: number;
    to: number;
    part?: { first: number; latest: number };
  };
  /** Whether this was an aggregation (the account's data read): false for a sign-in that only saves its accounts. */
  aggregated: boolean;
  /** The source that fetched them (`testbank`, `ofx`, `statement`...): stored with them, and compared with the account's other sources'. */
  source?: string;
}

export interface StoredAccount {
  row: AccountRow;
  /** The account's event (created or modified), then its transactions' events. */
  events: AggregationEvent[];
  /** Transactions stored that were not before. */
  created: number;
  /** Transactions another source of the account had stored already: not stored twice (dedup.service.ts). */
  duplicates: number;
}

const earliest = (stored: number | null, incoming: number) => (stored === null ? incoming : Math.min(Number(stored), incoming));

/**
 * Stores what a source gave for an account of `login` (`stored`: its row, when it exists), in the caller's
 * transaction. `also` sets more columns with the aggregation's (a historic load's date).
 */
export async function storeFetchedAccount(
  tx: Executor,
  login: InstitutionLoginRow,
  stored: AccountRow | undefined,
  fetched: FetchedAccount,
  now: number,
  also: Omit<AccountUpdate, 'id'> = {},
): Promise<StoredAccount> {
  let row: AccountRow;
  let change: 'created' | 'modified' | undefined;
  if (stored) {
    const updated = await updateAccountData(tx, stored, fetched.account, now);
    row = updated.row;
    if (updated.changed) change = 'modified';
  } else {
    row = await insertAccount(tx, login, fetched.account, now);
    change = 'created';
  }

  const window = fetched.transactions;
  // A part with no transactions has nothing to compare (an account stored before its slices).
  const sync =
    window && !(window.part && window.list.length === 0)
      ? await storeAccountTransactions(tx, row, window.list, window.from, window.to, now, {
          part: window.part !== undefined,
          ...(fetched.source !== undefined ? { source: fetched.source } : {}),
        })
      : undefined;
  if (fetched.aggregated) {
    // A part stores the dates the whole will give (its other parts come after); otherwise they are read back.
    const range = window?.part
      ? { oldest: earliest(row.oldest_transaction_at, window.part.first), last: Math.max(Number(row.last_transaction_at ?? 0), window.part.latest) }
      : await transactionDateRange(tx, row.id);
    const from = window?.part ? window.part.first : window?.from;
    row = await updateAccountRow(tx, row.id, {
      aggregation_status_code: 0,
      aggregation_attempt_at: now,
      aggregation_success_at: now,
      first_aggregated_at: row.first_aggregated_at ?? now,
      history_from: from === undefined ? row.history_from : earliest(row.history_from, from),
      oldest_transaction_at: range.oldest,
      last_transaction_at: range.last,
      ...also,
    });
  }

  // The balance a source read goes into the account's daily history; a file's closing balance is recorded by the upload.
  if (login.source !== 'statement-file' && !window?.part) await recordRefreshedBalance(tx, row, fetched.aggregated ? window?.from : undefined, now);

  const events: AggregationEvent[] = [];
  if (change) {
    const scope = { partnerId: login.partner_id, customerId: Number(login.customer_id), accountId: row.id };
    const expiring = Number(row.authorization_expiring) === 1 && Number(stored?.authorization_expiring ?? 0) === 0;
    events.push({ class: 'account', type: change, ...scope, record: await accountRecord(tx, row), ...(expiring ? { consentExpiring: true as const } : {}) });
  }
  if (sync) events.push(...sync.events);
  return { row, events, created: sync?.created ?? 0, duplicates: sync?.duplicates ?? 0 };
}

/**
 * Stores a source's transactions of an account dated in [from, to] (syncTransactions), after dropping those another
 * source of the account stored already (dedup.service.ts); in the caller's transaction.
 */
export async function storeAccountTransactions(
  tx: Executor,
  row: AccountRow,
  list: readonly ConnectorTransaction[],
  from: number,
  to: number,
  now: number,
  options: { part?: boolean; source?: string } = {},
): Promise<TransactionSyncResult & { duplicates: number }> {
  // The partner's rules set their values first, so what is stored and compared is the ruled record.
  const ruled = await ruleFetchedTransactions(tx, row, list);
  const deduped =
    options.source === undefined ? { kept: ruled.list, duplicates: 0 } : await dropCrossSourceDuplicates(tx, row, ruled.list, options.source, now);
  // A part that was all duplicates has nothing left to compare.
  if (options.part && deduped.kept.length === 0) return { created: 0, modified: 0, deleted: 0, events: [], duplicates: deduped.duplicates };
  const sync = await syncTransactions(tx, row, deduped.kept, from, to, now, options);
  await keepRuleSources(tx, row, ruled, now);
  return { ...sync, duplicates: deduped.duplicates };
}
