/**
 * Rules on what a source gives, before it is stored (the aggregation module's store.service.ts, for every refresh,
 * sign-in and statement file): the transactions are stored with the rules' values, so a refresh that brings the same
 * record again compares equal and records no change. What the source gave for a field a rule changed is kept
 * (transaction_rule_sources), so applying the rules again after one was removed restores it.
 */
import type { ConnectorTransaction } from '../../connectors/connector.js';
import type { TransactionCategory } from '../../connectors/categories.js';
import type { Executor } from '../../platform/db/database.js';
import { applyRules, type RuledValues, valuesDiffer } from './evaluate.js';
import * as repo from './repository.js';
import { partnerRules } from './service.js';

/** The account the transactions belong to, as rules see it. */
export interface RuledAccount {
  id: number;
  partner_id: string;
  institution_id: number;
}

/** What a source gave, with the partner's rules applied. */
export interface RuledTransactions {
  list: readonly ConnectorTransaction[];
  /** By ref: the source's values of the transactions a rule changed. */
  sources: Map<string, RuledValues>;
  /** Refs of the transactions no rule changed. */
  unchanged: string[];
  /** Whether source values may be kept for any of the partner's transactions (else there is none to forget). */
  keepsSources: boolean;
}

/** Lists this file made: handed to it again on their way to the store, they are left as they are. */
const ruledLists = new WeakSet<readonly ConnectorTransaction[]>();

/**
 * The transactions with the partner's rules applied, and what the source gave for what they changed. A list this
 * made already passes through unchanged (with nothing to keep): rules apply to a source's values once.
 */
export async function ruleFetchedTransactions(tx: Executor, account: RuledAccount, list: readonly ConnectorTransaction[]): Promise<RuledTransactions> {
  if (ruledLists.has(list)) return { list, sources: new Map(), unchanged: [], keepsSources: false };
  const rules = list.length === 0 ? [] : await partnerRules(tx, account.partner_id);
  if (rules.length === 0) {
    const keepsSources = list.length > 0 && (await repo.hasRuleSources(tx, account.partner_id));
    const same = [...list];
    ruledLists.add(same);
    return { list: same, sources: new Map(), unchanged: keepsSources ? list.map((t) => t.ref) : [], keepsSources };
  }
  const sources = new Map<string, RuledValues>();
  const unchanged: string[] = [];
  const ruled = list.map((t) => {
    const source: RuledValues = { category: t.categorization.category, payee: t.categorization.normalizedPayeeName, memo: t.memo ?? null };
    const subject = { description: t.description, payee: source.payee, amount: t.amount, accountId: account.id, institutionId: account.institution_id };
    const { values } = applyRules(rules, subject, source);
    if (!valuesDiffer(values, source)) {
      unchanged.push(t.ref);
      return t;
    }
    sources.set(t.ref, source);
    const { memo: _memo, ...rest } = t;
    return {
      ...rest,
      ...(values.memo === null ? {} : { memo: values.memo }),
      categorization: { ...t.categorization, category: values.category as TransactionCategory, normalizedPayeeName: values.payee },
    };
  });
  ruledLists.add(ruled);
  return { list: ruled, sources, unchanged, keepsSources: true };
}

/** After the transactions were stored: keeps the source values of those a rule changed, forgets those of the rest. */
export async function keepRuleSources(tx: Executor, account: RuledAccount, ruled: RuledTransactions, now: number): Promise<void> {
  if (!ruled.keepsSources) return;
  if (ruled.unchanged.length > 0) await repo.deleteRuleSourcesByRef(tx, account.id, ruled.unchanged);
  if (ruled.sources.size === 0) return;
  const ids = await repo.transactionIdsByRef(tx, account.id, [...ruled.sources.keys()]);
  const kept: repo.RuleSourceValues[] = [];
  for (const [ref, values] of ruled.sources) {
    const transactionId = ids.get(ref);
    if (transactionId !== undefined) kept.push({ transactionId, ...values });
  }
  await repo.upsertRuleSources(tx, account.partner_id, kept, now);
}
