/**
 * A partner's rules applied again to stored transactions (POST /aggregation/v1/partners/rules/apply), and a rule
 * tried on them before it is saved (…/rules/preview). A transaction's values are recomputed from what its source gave
 * (kept when a rule changed them, else the stored ones) and the rules as they are now, so a rule removed stops
 * showing. Changes are written a slice at a time, each slice in a short transaction of its own with the TxPUSH
 * `modified` events of its changes, so a large set never holds the database in one long write.
 */
import type { Static } from 'typebox';
import type { RulePreview, RulePreviewTransaction } from '../../contract/schemas/rules.js';
import { RULE_LIMITS } from '../../contract/schemas/rules.js';
import type { Executor } from '../../platform/db/database.js';
import { getCustomerForPartner } from '../customers/service.js';
import { applyRules, type CompiledRule, type RuledValues, valuesDiffer } from '../rules/evaluate.js';
import * as rulesRepo from '../rules/repository.js';
import { partnerRules, type RuleInput, rulesWithCandidate } from '../rules/service.js';
import { type Engine, serviceNow } from './engine.js';
import { recordEvents } from './events.service.js';
import { type AggregationEvent, toTransactionEventRecord } from './records.js';
import { updateTransactionRow } from './transactions.repository.js';

/** Transactions per slice: one short write transaction each. */
export const RULES_APPLY_SLICE = 500;

type StoredTransaction = Awaited<ReturnType<typeof rulesRepo.selectTransactionSlice>>[number];

/** A stored transaction's values now, what its source gave, and what the rules make of them. */
interface Recomputed {
  row: StoredTransaction;
  stored: RuledValues;
  source: RuledValues;
  values: RuledValues;
  matched: number[];
}

async function recompute(db: Executor, rules: readonly CompiledRule[], rows: readonly StoredTransaction[]): Promise<Recomputed[]> {
  const kept = await rulesRepo.selectRuleSources(
    db,
    rows.map((r) => Number(r.id)),
  );
  return rows.map((row) => {
    const stored: RuledValues = { category: row.category ?? '', payee: row.normalized_payee_name ?? '', memo: row.memo };
    const k = kept.get(Number(row.id));
    const source: RuledValues = k ? { category: k.category ?? '', payee: k.normalized_payee_name ?? '', memo: k.memo } : stored;
    const subject = {
      description: row.description,
      payee: source.payee,
      amount: Number(row.amount),
      accountId: Number(row.account_id),
      institutionId: Number(row.institution_id),
    };
    const { values, applied } = applyRules(rules, subject, source);
    return { row, stored, source, values, matched: applied };
  });
}

/** Writes one slice's changes and their events, in one transaction. */
async function applySlice(
  engine: Engine,
  partnerId: string,
  rules: readonly CompiledRule[],
  customerId: number,
  afterId: number,
): Promise<{ examined: number; modified: number; lastId: number | undefined }> {
  return engine.database.kysely.transaction().execute(async (tx) => {
    const rows = await rulesRepo.selectTransactionSlice(tx, { partnerId, customerId }, afterId, RULES_APPLY_SLICE);
    const now = serviceNow(engine);
    const events: AggregationEvent[] = [];
    const keep: rulesRepo.RuleSourceValues[] = [];
    const forget: number[] = [];
    for (const r of await recompute(tx, rules, rows)) {
      const id = Number(r.row.id);
      if (valuesDiffer(r.values, r.source)) keep.push({ transactionId: id, ...r.source });
      else if (r.source !== r.stored) forget.push(id);
      if (!valuesDiffer(r.values, r.stored)) continue;
      const updated = await updateTransactionRow(tx, id, {
        category: r.values.category,
        normalized_payee_name: r.values.payee,
        memo: r.values.memo,
        updated_at: now,
      });
      events.push({
        class: 'transaction',
        type: 'modified',
        partnerId,
        customerId,
        accountId: Number(r.row.account_id),
        record: toTransactionEventRecord(updated),
      });
    }
    await rulesRepo.upsertRuleSources(tx, partnerId, keep, now);
    await rulesRepo.deleteRuleSources(tx, forget);
    await recordEvents(engine, tx, events);
    return { examined: rows.length, modified: events.length, lastId: rows.length === RULES_APPLY_SLICE ? Number(rows[rows.length - 1]!.id) : undefined };
  });
}

/**
 * Applies the partner's rules again to its stored transactions (one customer's with `customerId`; 404 for an unknown
 * customer or another partner's), a customer and a slice at a time. Answers how many were looked at and changed.
 */
export async function applyRulesToStored(engine: Engine, partnerId: string, customerId?: string): Promise<{ examined: number; modified: number }> {
  const db = engine.database.kysely;
  const rules = await partnerRules(db, partnerId);
  const totals = { examined: 0, modified: 0 };
  const applyCustomer = async (id: number) => {
    let after: number | undefined = 0;
    while (after !== undefined) {
      const slice = await applySlice(engine, partnerId, rules, id, after);
      totals.examined += slice.examined;
      totals.modified += slice.modified;
      after = slice.lastId;
    }
  };
  if (customerId !== undefined) {
    await applyCustomer(Number((await getCustomerForPartner(db, partnerId, customerId)).id));
    return totals;
  }
  let afterCustomer = 0;
  for (;;) {
    const ids = await rulesRepo.selectCustomerIds(db, partnerId, afterCustomer, RULES_APPLY_SLICE);
    for (const id of ids) await applyCustomer(id);
    if (ids.length < RULES_APPLY_SLICE) return totals;
    afterCustomer = ids[ids.length - 1]!;
  }
}

type PreviewTransaction = Static<typeof RulePreviewTransaction>;

const shown = (v: RuledValues) => ({ category: v.category, payee: v.payee, ...(v.memo === null ? {} : { memo: v.memo }) });

/**
 * What saving `rule` (in place of `replacesRuleId`, for an edit) and applying the rules again would change, on the
 * partner's most recent RULE_LIMITS.previewExamined stored transactions (a customer's with `customerId`). Reads only.
 */
export async function previewRule(
  engine: Pick<Engine, 'database'>,
  partnerId: string,
  rule: RuleInput,
  replacesRuleId: string | undefined,
  customerId: string | undefined,
): Promise<Static<typeof RulePreview>> {
  const db = engine.database.kysely;
  const rules = await rulesWithCandidate(db, partnerId, rule, replacesRuleId);
  const candidate = replacesRuleId === undefined ? Number.MAX_SAFE_INTEGER : Number(replacesRuleId);
  const scope = { partnerId, ...(customerId !== undefined ? { customerId: Number((await getCustomerForPartner(db, partnerId, customerId)).id) } : {}) };
  const preview: Static<typeof RulePreview> = { examined: 0, matched: 0, changed: 0, transactions: [] };
  let before: number | undefined;
  while (preview.examined < RULE_LIMITS.previewExamined) {
    const limit = Math.min(RULES_APPLY_SLICE, RULE_LIMITS.previewExamined - preview.examined);
    const rows = await rulesRepo.selectTransactionSlice(db, scope, before, limit, true);
    for (const r of await recompute(db, rules, rows)) {
      if (r.matched.includes(candidate)) preview.matched++;
      if (!valuesDiffer(r.values, r.stored)) continue;
      preview.changed++;
      if (preview.transactions.length >= RULE_LIMITS.preview) continue;
      const t: PreviewTransaction = {
        id: Number(r.row.id),
        customerId: Number(r.row.customer_id),
        accountId: Number(r.row.account_id),
        description: r.row.description,
        amount: Number(r.row.amount),
        transactionDate: Number(r.row.transaction_date ?? r.row.effective_date),
        before: shown(r.stored),
        after: shown(r.values),
      };
      preview.transactions.push(t);
    }
    preview.examined += rows.length;
    if (rows.length < limit) break;
    before = Number(rows[rows.length - 1]!.id);
  }
  return preview;
}
