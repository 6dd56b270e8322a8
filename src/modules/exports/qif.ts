/**
 * QIF export: for each account an `!Account` record (its name and kind) and a transaction section (`!Type:Bank`,
 * `!Type:CCard`, `!Type:Oth L` for money owed), each transaction D (date, MM/DD/YYYY as Quicken writes in the US),
 * T (amount), N (check number), P (payee: the description), M (memo), ended by `^`. QIF names no currency: a file's
 * amounts are in each account's own, which the file cannot say (docs/exports.md).
 */
import { amountText } from '../../platform/amount-text.js';
import { type ExportAccount, type ExportContext, type ExportWriter, type ExportWriterRow, plainText } from './writer.js';

/** The section and the `!Account` type of each kind of account. */
function kindOf(type: string): { section: string; accountType: string } {
  if (type === 'creditCard') return { section: 'CCard', accountType: 'CCard' };
  if (type === 'loan' || type === 'mortgage' || type === 'lineOfCredit') return { section: 'Oth L', accountType: 'Oth L' };
  return { section: 'Bank', accountType: 'Bank' };
}

function qifDate(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

/**
 * Each account's name in the file: its own, with its Ledgerlink id added where two accounts of the file share a
 * name, since a QIF reader tells accounts apart by name alone.
 */
function accountNames(accounts: readonly ExportAccount[]): Map<number, string> {
  const plain = new Map(accounts.map((a) => [a.id, plainText(a.name) || `Account ${a.id}`]));
  // Names alike but for case, spacing or punctuation are alike to readers that key accounts by a slug of the name.
  const key = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const count = new Map<string, number>();
  for (const name of plain.values()) count.set(key(name), (count.get(key(name)) ?? 0) + 1);
  return new Map(accounts.map((a) => [a.id, count.get(key(plain.get(a.id)!))! > 1 ? `${plain.get(a.id)} (${a.id})` : plain.get(a.id)!]));
}

function qifWriter(context: ExportContext): ExportWriter {
  const names = accountNames(context.accounts);
  return {
    start: () => '',
    accountStart: (account) => {
      const kind = kindOf(account.type);
      return `!Account\nN${names.get(account.id)}\nT${kind.accountType}\n^\n!Type:${kind.section}\n`;
    },
    transactions: (_account, rows) => {
      let out = '';
      for (const t of rows) {
        const memo = plainText(t.memo ?? '');
        const checkNum = plainText(t.checkNum ?? '');
        out += `D${qifDate(t.effectiveDate)}\nT${amountText(t.amount)}\n`;
        if (checkNum !== '') out += `N${checkNum}\n`;
        out += `P${plainText(t.description)}\n`;
        if (memo !== '') out += `M${memo}\n`;
        out += '^\n';
      }
      return out;
    },
    accountEnd: () => '',
    end: () => '',
  };
}

export const QIF_EXPORT: ExportWriterRow = { create: qifWriter };
