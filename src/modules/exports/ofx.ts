/**
 * OFX 2.2 export (XML): the signon, then one statement per account: STMTRS in the bank message set, CCSTMTRS in the
 * credit card one, each with its currency (CURDEF), account (BANKACCTFROM or CCACCTFROM), transaction list with the
 * window it covers and the account's ledger balance. Elements are written in the order the specification's
 * aggregates declare them. NAME holds at most 32 characters (the specification's limit); a longer description is
 * written whole in EXTDNAME (up to 100), which Ledgerlink's reader prefers when it continues NAME.
 */
import { amountText } from '../../platform/amount-text.js';
import { formatOfxDate } from '../../connectors/ofx/dates.js';
import { type ExportAccount, type ExportContext, type ExportTransaction, type ExportWriter, type ExportWriterRow, firstChars, plainText } from './writer.js';

const NAME_CHARS = 32;
const EXTDNAME_CHARS = 100;
const MEMO_CHARS = 255;
const ACCTID_CHARS = 22;
const CHECKNUM_CHARS = 12;

/** Characters XML gives a meaning to, as entity references. */
export function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const leaf = (name: string, value: string) => `<${name}>${xmlText(value)}</${name}>`;

/** The transaction types of the contract as TRNTYPE; a type without one is a DEBIT or a CREDIT by its sign. */
const TRNTYPES: Readonly<Record<string, string>> = {
  credit: 'CREDIT',
  debit: 'DEBIT',
  interest: 'INT',
  dividend: 'DIV',
  fee: 'FEE',
  serviceCharge: 'SRVCHG',
  deposit: 'DEP',
  atm: 'ATM',
  pointOfSale: 'POS',
  transfer: 'XFER',
  check: 'CHECK',
  payment: 'PAYMENT',
  cash: 'CASH',
  directDeposit: 'DIRECTDEP',
  directDebit: 'DIRECTDEBIT',
  repeatPayment: 'REPEATPMT',
  other: 'OTHER',
};

function trnType(t: ExportTransaction): string {
  return (t.type !== null && Object.hasOwn(TRNTYPES, t.type) ? TRNTYPES[t.type] : undefined) ?? (t.amount < 0 ? 'DEBIT' : 'CREDIT');
}

/**
 * BANKACCTFROM's ACCTTYPE. OFX bank statements know no loans or investment accounts: money owed is a CREDITLINE,
 * anything else that holds money a CHECKING account (its transactions are what the file carries).
 */
function acctType(type: string): string {
  if (type === 'savings') return 'SAVINGS';
  if (type === 'lineOfCredit' || type === 'loan' || type === 'mortgage') return 'CREDITLINE';
  return 'CHECKING';
}

const isCard = (a: ExportAccount) => a.type === 'creditCard';

/**
 * Each account's ACCTID: its masked number where it has one that no other account of the file shares (and that fits
 * the 22 characters of the specification), else its Ledgerlink id, so every statement names one account.
 */
function accountIds(accounts: readonly ExportAccount[]): Map<number, string> {
  const count = new Map<string, number>();
  for (const a of accounts) count.set(a.number, (count.get(a.number) ?? 0) + 1);
  return new Map(accounts.map((a) => [a.id, a.number !== '' && a.number.length <= ACCTID_CHARS && count.get(a.number) === 1 ? a.number : String(a.id)]));
}

const STATUS_OK = '<STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>';

function ofxWriter(context: ExportContext): ExportWriter {
  const ids = accountIds(context.accounts);
  let messageSet: 'bank' | 'card' | undefined;
  const closeSet = () => (messageSet === 'bank' ? '</BANKMSGSRSV1>\n' : messageSet === 'card' ? '</CREDITCARDMSGSRSV1>\n' : '');
  return {
    start: () =>
      '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' +
      '<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>\n' +
      '<OFX>\n' +
      `<SIGNONMSGSRSV1><SONRS>${STATUS_OK}${leaf('DTSERVER', formatOfxDate(context.now))}${leaf('LANGUAGE', 'ENG')}</SONRS></SIGNONMSGSRSV1>\n`,
    accountStart: (account) => {
      const set = isCard(account) ? 'card' : 'bank';
      let out = '';
      if (set !== messageSet) {
        out += closeSet() + (set === 'bank' ? '<BANKMSGSRSV1>\n' : '<CREDITCARDMSGSRSV1>\n');
        messageSet = set;
      }
      const acctId = ids.get(account.id)!;
      const from =
        set === 'bank'
          ? `<BANKACCTFROM>${leaf('BANKID', String(account.institutionId))}${leaf('ACCTID', acctId)}${leaf('ACCTTYPE', acctType(account.type))}</BANKACCTFROM>`
          : `<CCACCTFROM>${leaf('ACCTID', acctId)}</CCACCTFROM>`;
      const [trnrs, stmtrs] = set === 'bank' ? ['STMTTRNRS', 'STMTRS'] : ['CCSTMTTRNRS', 'CCSTMTRS'];
      const start = context.fromDate ?? Math.min(account.balanceDate, context.now);
      const end = context.toDate ?? context.now;
      out +=
        `<${trnrs}>${leaf('TRNUID', String(account.id))}${STATUS_OK}<${stmtrs}>${leaf('CURDEF', account.currency)}${from}\n` +
        `<BANKTRANLIST>${leaf('DTSTART', formatOfxDate(start))}${leaf('DTEND', formatOfxDate(end))}\n`;
      return out;
    },
    transactions: (_account, rows) => {
      let out = '';
      for (const t of rows) {
        const description = plainText(t.description);
        const name = firstChars(description, NAME_CHARS);
        const memo = plainText(t.memo ?? '');
        const checkNum = plainText(t.checkNum ?? '');
        out +=
          '<STMTTRN>' +
          leaf('TRNTYPE', trnType(t)) +
          leaf('DTPOSTED', formatOfxDate(t.postedDate ?? t.effectiveDate)) +
          (t.transactionDate !== null ? leaf('DTUSER', formatOfxDate(t.transactionDate)) : '') +
          leaf('TRNAMT', amountText(t.amount)) +
          leaf('FITID', String(t.id)) +
          (checkNum !== '' ? leaf('CHECKNUM', firstChars(checkNum, CHECKNUM_CHARS)) : '') +
          (name !== '' ? leaf('NAME', name) : '') +
          (name !== description ? leaf('EXTDNAME', firstChars(description, EXTDNAME_CHARS)) : '') +
          (memo !== '' ? leaf('MEMO', firstChars(memo, MEMO_CHARS)) : '') +
          '</STMTTRN>\n';
      }
      return out;
    },
    accountEnd: (account) => {
      const stmtrs = isCard(account) ? 'CCSTMTRS' : 'STMTRS';
      const trnrs = isCard(account) ? 'CCSTMTTRNRS' : 'STMTTRNRS';
      return (
        `</BANKTRANLIST><LEDGERBAL>${leaf('BALAMT', amountText(account.balance))}${leaf('DTASOF', formatOfxDate(account.balanceDate))}</LEDGERBAL>` +
        `</${stmtrs}></${trnrs}>\n`
      );
    },
    end: () => `${closeSet()}</OFX>\n`,
  };
}

export const OFX_EXPORT: ExportWriterRow = {
  // The bank message set comes before the credit card one (the specification's order of message sets).
  order: (accounts) => [...accounts.filter((a) => !isCard(a)), ...accounts.filter(isCard)],
  create: ofxWriter,
};
