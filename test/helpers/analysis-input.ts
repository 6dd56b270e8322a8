import type { ConnectorAccount, ConnectorTransaction } from '../../src/connectors/connector.js';
import { dayText } from '../../src/modules/reports/analysis/dates.js';
import type { AnalysisAccount, AnalysisDailyBalance, AnalysisInput, AnalysisTransaction } from '../../src/modules/reports/analysis/types.js';
import { accounts, DAY, NOW, signIn, transactions } from './testbank.js';

const TWO_YEARS = 730 * DAY;

/**
 * A test-bank profile's two years as the analyses read them, straight from the connector: posted transactions,
 * and each deposit, card and credit-line account's end-of-day balance walked back from today's over them.
 */
export async function testBankAnalysisInput(profile: string, now = NOW, institutionId = 101732): Promise<AnalysisInput> {
  const session = await signIn(profile, institutionId, now);
  const list = await accounts(session, institutionId, now);
  const out: AnalysisInput = { accounts: [], transactions: [], dailyBalances: [], fromDate: now - TWO_YEARS, now };
  let id = 1;
  for (const [i, a] of list.entries()) {
    const account: AnalysisAccount = {
      id: i + 1,
      name: a.name,
      type: a.type,
      currency: a.currency,
      balance: a.balance,
      segment: a.marketSegment === 'business' ? 'business' : 'personal',
    };
    out.accounts.push(account);
    const posted = (await transactions(session, a.ref, now - TWO_YEARS, now, institutionId, now)).filter((t) => t.status === 'active');
    for (const t of posted) out.transactions.push(analysisTransaction(id++, account.id, t));
    out.dailyBalances.push(...walkedBack(account.id, a, posted, now));
  }
  return out;
}

function analysisTransaction(id: number, accountId: number, t: ConnectorTransaction): AnalysisTransaction {
  return {
    id,
    accountId,
    amount: t.amount,
    postedDate: t.postedDate ?? t.transactionDate,
    description: t.description,
    ...(t.memo ? { memo: t.memo } : {}),
    ...(t.type ? { type: t.type } : {}),
    ...(t.categorization ? { category: t.categorization.category, payee: t.categorization.normalizedPayeeName } : {}),
    ...(t.categorization?.category === 'Transfer' || t.categorization?.category === 'Credit Card Payment' ? { transfer: true } : {}),
  };
}

function walkedBack(accountId: number, a: ConnectorAccount, posted: readonly ConnectorTransaction[], now: number): AnalysisDailyBalance[] {
  if (!['checking', 'savings', 'creditCard', 'lineOfCredit'].includes(a.type)) return [];
  const byDay = new Map<number, number>();
  for (const t of posted) {
    const day = Math.floor((t.postedDate ?? t.transactionDate) / DAY);
    byDay.set(day, (byDay.get(day) ?? 0) + Math.round(t.amount * 100));
  }
  const out: AnalysisDailyBalance[] = [];
  let cents = Math.round(a.balance * 100);
  for (let day = Math.floor(now / DAY); day >= Math.floor((now - 730 * DAY) / DAY); day--) {
    out.push({ accountId, day: dayText(day), balance: cents / 100 });
    cents -= byDay.get(day) ?? 0;
  }
  return out;
}
