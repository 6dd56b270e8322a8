/**
 * NSF and overdraft events: the fees an institution charged because an account lacked funds (found in the
 * transactions' text, category and type), their reversals, items returned unpaid, and the days the balance was
 * below zero.
 */
import { type BalanceDay, negativeSpells, type NegativeSpell } from './balances.js';
import { dayOf } from './dates.js';
import { cents } from './stats.js';
import type { AnalysisTransaction } from './types.js';

const NSF_TEXT = /\bNSF\b|NON[- ]?SUFFICIENT|INSUFFICIENT FUNDS?|RETURNED ITEM|RETURN ITEM|UNPAID ITEM/;
const OVERDRAFT_TEXT = /OVERDRAFT|OVERDRAWN|\bOD (FEE|CHARGE)\b/;
const REVERSAL_TEXT = /REVERS|REFUND|REBATE|WAIVE/;
const RETURNED_TEXT = /RETURNED (ITEM|CHECK|PAYMENT|ACH)|ITEM RETURNED|RETURN OF/;
const FEE_TYPES = new Set(['fee', 'serviceCharge']);
const FEE_CATEGORIES = new Set(['Bank Fee', 'Fees & Charges', 'Service Fee', 'Late Fee', 'Low Balance']);

export type FeeKind = 'nsf' | 'overdraft';

export interface FeeEvent {
  transactionId: number;
  accountId: number;
  postedDate: number;
  amount: number;
  kind: FeeKind;
}

export type InsufficientFundsRole = 'fee' | 'reversal' | 'returnedItem';

function textOf(t: AnalysisTransaction): string {
  return `${t.description} ${t.memo ?? ''}`.toUpperCase();
}

/**
 * What a transaction is to the NSF analysis: a fee (a debit whose text names NSF or an overdraft and that is a fee
 * by its type, category or words), the reversal of one (a credit naming the fee and a refund), an item returned
 * unpaid (a credit giving back a refused debit), or nothing.
 */
export function insufficientFundsRole(t: AnalysisTransaction): { role: InsufficientFundsRole; kind?: FeeKind } | undefined {
  const text = textOf(t);
  const nsf = NSF_TEXT.test(text);
  const overdraft = OVERDRAFT_TEXT.test(text);
  const kind: FeeKind | undefined = nsf ? 'nsf' : overdraft ? 'overdraft' : undefined;
  const feeLike = FEE_TYPES.has(t.type ?? '') || FEE_CATEGORIES.has(t.category ?? '') || /\bFEE\b|CHARGE/.test(text);
  if (t.amount < 0 && kind && feeLike) return { role: 'fee', kind };
  if (t.amount > 0 && kind && feeLike && REVERSAL_TEXT.test(text)) return { role: 'reversal', kind };
  if (t.amount > 0 && RETURNED_TEXT.test(text)) return { role: 'returnedItem' };
  return undefined;
}

export interface InsufficientFundsSummary {
  accountId: number;
  nsfFeeCount: number;
  overdraftFeeCount: number;
  /** NSF and overdraft fees together. */
  feeCount: number;
  /** Their amounts added (negative). */
  feeTotal: number;
  reversalCount: number;
  reversalTotal: number;
  returnedItemCount: number;
  fees: FeeEvent[];
  reversals: FeeEvent[];
  returnedItemIds: number[];
  lastFeeDate?: number;
  /** Days from the last fee to the window's last day. */
  daysSinceLastFee?: number;
  negativeBalanceDays: number;
  negativeSpells: NegativeSpell[];
}

/** The NSF and overdraft picture of one account over the window (its transactions and balances already in it). */
export function insufficientFunds(
  accountId: number,
  transactions: readonly AnalysisTransaction[],
  balances: readonly BalanceDay[],
  lastDay: number,
): InsufficientFundsSummary {
  const fees: FeeEvent[] = [];
  const reversals: FeeEvent[] = [];
  const returnedItemIds: number[] = [];
  const ordered = transactions.filter((t) => t.accountId === accountId).sort((a, b) => a.postedDate - b.postedDate || a.id - b.id);
  for (const t of ordered) {
    const found = insufficientFundsRole(t);
    if (!found) continue;
    const event = { transactionId: t.id, accountId, postedDate: t.postedDate, amount: t.amount, kind: found.kind ?? 'nsf' };
    if (found.role === 'fee') fees.push(event);
    else if (found.role === 'reversal') reversals.push(event);
    else returnedItemIds.push(t.id);
  }
  const spells = negativeSpells(balances);
  const last = fees[fees.length - 1];
  return {
    accountId,
    nsfFeeCount: fees.filter((f) => f.kind === 'nsf').length,
    overdraftFeeCount: fees.filter((f) => f.kind === 'overdraft').length,
    feeCount: fees.length,
    feeTotal: cents(fees.reduce((a, f) => a + f.amount, 0)),
    reversalCount: reversals.length,
    reversalTotal: cents(reversals.reduce((a, f) => a + f.amount, 0)),
    returnedItemCount: returnedItemIds.length,
    fees,
    reversals,
    returnedItemIds,
    ...(last ? { lastFeeDate: last.postedDate, daysSinceLastFee: lastDay - dayOf(last.postedDate) } : {}),
    negativeBalanceDays: spells.reduce((a, s) => a + s.days, 0),
    negativeSpells: spells,
  };
}
