/**
 * An ISO 20022 cash management file as a StatementImport: camt.053 (statement, BkToCstmrStmt/Stmt), camt.052
 * (account report, BkToCstmrAcctRpt/Rpt) or camt.054 (debit/credit notification, BkToCstmrDbtCdtNtfctn/Ntfctn),
 * versions 001.02 to 001.08, which differ in where a few elements sit (`Sts` or `Sts/Cd`, `Dbtr/Nm` or
 * `Dbtr/Pty/Nm`, a detail's amount in `Amt` or `AmtDtls/TxAmt/Amt`); all are read.
 *
 * Each statement (report, notification) is an account (`Acct/Id/IBAN` or `Acct/Id/Othr/Id`) in `Acct/Ccy`, else in
 * the currency its balances and entries name; entries in another currency make an account of their own, so money
 * keeps its currency. Entries (`Ntry`) are transactions: the amount signed by `CdtDbtInd` (flipped by `RvslInd`),
 * posted on the booking date, dated by the value date. Booked entries are stored; pending and information-only ones
 * are named in `problems`, like every entry that cannot be read. An entry that batches several transactions is
 * stored as the bank booked it, at the entry's amount. Several statements of one account in a file are merged.
 */
import { describeCurrencyValue, isIso4217, NO_CURRENCY } from '../../platform/currency.js';
import { ibanCountry, maskAccountNumber } from '../account-number.js';
import { categorize } from '../categorize.js';
import type { ConnectorTransaction, TransactionType } from '../connector.js';
import { countryOfCurrency } from '../ofx/map.js';
import { accountTypeOfCode, type BankTransactionCode, transactionTypeOfCode } from './camt-codes.js';
import { noteClosingBalance } from './closing-balances.js';
import { at, attributeOf, childrenOf, decodeXmlFile, parseXmlFile, scanStartTags, textOf, type XmlValue } from './camt-xml.js';
import { StatementFileError } from './csv.js';
import { cached, refDescription } from './import.js';
import { type NameProblem, problemList } from './problems.js';
import type { StatementAccount, StatementImport } from './types.js';
import { isoDay, noonUtc } from './values.js';

/** The three messages: the group element under Document and the element of each account in it. */
const MESSAGES = [
  { group: 'BkToCstmrStmt', item: 'Stmt' },
  { group: 'BkToCstmrAcctRpt', item: 'Rpt' },
  { group: 'BkToCstmrDbtCdtNtfctn', item: 'Ntfctn' },
] as const;

/** Versions read by their specification (001.02 to 001.08); others are read the same way, with a word. */
const FIRST_VERSION = 2;
const LAST_VERSION = 8;
const NAMESPACE = /urn:iso:std:iso:20022:tech:xsd:camt\.(05[234])\.001\.(\d{2})/;

/** More than any element of a camt message carries (Document its namespace declarations and schema location). */
const MAX_ATTRIBUTES = 32;
/** Characters of a description or memo kept (remittance information may run to many lines). */
const MAX_TEXT_CHARS = 1000;
/** Transactions of a batch named one by one in its memo. */
const BATCH_MEMO_PARTS = 10;

/** What banks write in a reference field when they have none: no reference at all. */
const NO_REFERENCE = /^(?:NONREF|NOTPROVIDED|NOT PROVIDED|NONE|N\/?A|0+)$/i;

/**
 * Whether a file beginning with `head` is a camt file: markup naming a camt.052/053/054 namespace or one of their
 * group elements. Neither occurs in OFX, CSV, QIF or MT940 files.
 */
export function looksLikeCamt(head: string): boolean {
  return (
    /^\s*</.test(head) &&
    (/urn:iso:std:iso:20022:tech:xsd:camt\.05[234]\./.test(head) || /<(?:[A-Za-z_][\w.-]*:)?BkToCstmr(?:Stmt|AcctRpt|DbtCdtNtfctn)[\s>]/.test(head))
  );
}

/** An entry as read, before its reference is chosen. */
interface Entry {
  statement: number;
  line: number | undefined;
  amount: number;
  booked: number;
  value: number | undefined;
  bankRef: string;
  entryRef: string;
  description: string;
  memo: string;
  type: TransactionType;
  checkNum: string;
}

interface Balance {
  amount: number;
  date: number;
  statement: number;
}

/** One account of the file: an account id in one currency, with what its statements hold. */
interface AccountGroup {
  id: string;
  currency: string;
  name: string;
  typeCode: string;
  entries: Entry[];
  booked?: Balance;
  available?: Balance;
  /** Every booked closing or interim balance of its statements. */
  closings?: Balance[];
}

/** Reads a camt file, or refuses it (StatementFileError) when it is not well-formed XML or holds no camt message. */
export function readCamtStatement(input: string | Uint8Array): StatementImport {
  const text = decodeXmlFile(input);
  const lines = scanStartTags(text, ['Ntry', ...MESSAGES.map((m) => m.item)], MAX_ATTRIBUTES);
  const doc = parseXmlFile(text);
  const root = at(doc, 'Document') ?? doc;
  const message = MESSAGES.find((m) => childrenOf(root, m.group).length > 0);
  if (!message) {
    const name = Object.keys(typeof root === 'object' && root !== null ? root : {})[0];
    throw new StatementFileError(
      'unreadable',
      `The file is XML but no camt.052, camt.053 or camt.054 message${name !== undefined ? ` (it holds ${JSON.stringify(name.slice(0, 40))})` : ''}.`,
    );
  }

  const { problems, problem, countMore } = problemList();
  const version = NAMESPACE.exec(text);
  if (version && (Number(version[2]) < FIRST_VERSION || Number(version[2]) > LAST_VERSION)) {
    problem(
      undefined,
      `The file is camt.${version[1]} version 001.${version[2]}, not one of the versions read by their specification (001.02 to 001.08): it was read as those are, so check what was imported.`,
    );
  }

  const statements = childrenOf(at(root, message.group), message.item);
  const entryNodes = statements.map((s) => childrenOf(s, 'Ntry'));
  const entryCount = entryNodes.reduce((sum, list) => sum + list.length, 0);
  // Lines are given only when the text's tags are the parsed elements, one for one.
  const statementLines = lines.get(message.item)!.length === statements.length ? lines.get(message.item)! : [];
  const entryLines = lines.get('Ntry')!.length === entryCount ? lines.get('Ntry')! : [];

  const groups = new Map<string, AccountGroup>();
  const badCurrencies = new Set<string>();
  const currencyOf = (code: string, fallback: string): string => {
    if (code === '') return fallback;
    if (isIso4217(code)) return code;
    if (!badCurrencies.has(code)) {
      badCurrencies.add(code);
      problem(undefined, `Amounts in ${describeCurrencyValue(code)}, which is not an ISO 4217 currency code, were kept without a currency (${NO_CURRENCY}).`);
    }
    return NO_CURRENCY;
  };

  let entryIndex = 0;
  statements.forEach((statement, index) => {
    const line = statementLines[index];
    const nodes = entryNodes[index]!;
    const firstEntry = entryIndex;
    entryIndex += nodes.length;
    const account = at(statement, 'Acct');
    const id = textOf(at(account, 'Id', 'IBAN')).replace(/ /g, '') || textOf(at(account, 'Id', 'Othr', 'Id'));
    if (id === '') {
      problem(line, `A statement names no account (Acct/Id/IBAN or Acct/Id/Othr/Id): its ${plural(nodes.length, 'entry', 'entries')} were left out.`);
      return;
    }
    const shown = maskAccountNumber(id);
    const stated = textOf(at(account, 'Ccy'));
    if (stated !== '' && !isIso4217(stated))
      problem(line, `The account ${shown} names the currency ${describeCurrencyValue(stated)}, which is not an ISO 4217 code.`);
    const balanceNodes = childrenOf(statement, 'Bal');
    const named = isIso4217(stated) ? [] : [...balanceNodes, ...nodes].map((n) => attributeOf(at(n, 'Amt'), 'Ccy'));
    const currency = isIso4217(stated) ? stated : named.find(isIso4217);
    // Currencies named that are no codes are problems of their own (currencyOf).
    if (currency === undefined && stated === '' && named.every((c) => c === '')) {
      problem(line, `The account ${shown} names no currency: its amounts were kept without one (${NO_CURRENCY}).`);
    }
    const statementCurrency = currency ?? NO_CURRENCY;
    const groupOf = (inCurrency: string): AccountGroup => {
      const key = `${id}\u0000${inCurrency}`;
      let group = groups.get(key);
      if (!group) {
        group = { id, currency: inCurrency, name: textOf(at(account, 'Nm')), typeCode: textOf(at(account, 'Tp', 'Cd')), entries: [] };
        groups.set(key, group);
        if (isIso4217(stated) && inCurrency !== stated) {
          problem(line, `Amounts of the account ${shown} (in ${stated}) name ${inCurrency}: they were kept in an account of their own in ${inCurrency}.`);
        }
      }
      return group;
    };
    groupOf(statementCurrency);

    for (const b of balanceNodes) {
      const read = readBalance(b);
      if (!read) continue;
      const group = groupOf(currencyOf(attributeOf(at(b, 'Amt'), 'Ccy'), statementCurrency));
      const balance: Balance = { amount: read.amount, date: read.date, statement: index };
      if (read.kind === 'booked') {
        group.booked = later(group.booked, balance);
        (group.closings ??= []).push(balance);
      } else group.available = later(group.available, balance);
    }

    nodes.forEach((node, i) => {
      const entryLine = entryLines[firstEntry + i];
      const amountCurrency = currencyOf(attributeOf(at(node, 'Amt'), 'Ccy'), statementCurrency);
      const entry = readEntry(node, index, entryLine, amountCurrency, problem);
      if (entry) groupOf(amountCurrency).entries.push(entry);
    });
  });
  countMore((n) => `${n} more entries could not be read.`);

  const currenciesOfId = new Map<string, number>();
  for (const g of groups.values()) currenciesOfId.set(g.id, (currenciesOfId.get(g.id) ?? 0) + 1);
  const accounts: StatementAccount[] = [];
  const transactions: ConnectorTransaction[] = [];
  for (const group of groups.values()) {
    // With its currency always, so that an account held in several stays the same accounts whichever a later file holds.
    const ref = `${group.id} ${group.currency}`;
    const several = currenciesOfId.get(group.id)! > 1;
    const account: StatementAccount = {
      ref,
      type: accountTypeOfCode(group.typeCode),
      number: group.id,
      name: group.name === '' ? `Account ${maskAccountNumber(group.id)} (${group.currency})` : several ? `${group.name} (${group.currency})` : group.name,
      currency: group.currency,
    };
    if (group.booked) {
      account.balance = group.booked.amount;
      account.balanceDate = group.booked.date;
    }
    if (group.available) account.availableBalance = group.available.amount;
    // By date, the later statement's on the same day, as the account's balance is chosen.
    for (const c of (group.closings ?? []).sort((a, b) => a.date - b.date || a.statement - b.statement)) noteClosingBalance(account, c.date, c.amount);
    accounts.push(account);
    const country = ibanCountry(group.id) ?? countryOfCurrency(group.currency);
    for (const { entry, ref: transactionRef } of referenced(group.entries)) {
      const t: ConnectorTransaction = {
        accountRef: ref,
        ref: transactionRef,
        amount: entry.amount,
        status: 'active',
        postedDate: entry.booked,
        transactionDate: entry.value ?? entry.booked,
        description: entry.description,
        type: entry.type,
        categorization: categorize(entry.description, entry.memo || undefined, entry.type, country),
      };
      if (entry.memo !== '') t.memo = entry.memo;
      if (entry.checkNum !== '') t.checkNum = entry.checkNum;
      transactions.push(t);
    }
  }
  return { format: 'camt', accounts, transactions, problems };
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The later of two balances by date, the later statement's on the same day. */
function later(kept: Balance | undefined, next: Balance): Balance {
  return kept === undefined || next.date > kept.date || (next.date === kept.date && next.statement >= kept.statement) ? next : kept;
}

/** An amount as camt writes it (digits, a decimal point, no sign), or undefined. */
function amountOf(text: string): number | undefined {
  return /^\d{1,18}(?:[.,]\d{1,5})?$/.test(text) ? Number(text.replace(',', '.')) : undefined;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A `Dt` or `DtTm` choice as the day it names, at noon UTC as every statement file's dates: the day as written,
 * whatever the time and zone after it, since it is the bank's day of the booking.
 */
function dateOf(choice: XmlValue | undefined): number | undefined {
  const text = textOf(at(choice, 'Dt')) || textOf(at(choice, 'DtTm'));
  const parts = DATE.exec(text);
  return parts ? noonUtc(Number(parts[1]), Number(parts[2]), Number(parts[3])) : undefined;
}

/** A closing or interim balance: booked (the account's balance) or available. Opening balances say nothing newer. */
function readBalance(node: XmlValue): { kind: 'booked' | 'available'; amount: number; date: number } | undefined {
  const code = textOf(at(node, 'Tp', 'CdOrPrtry', 'Cd'));
  const kind = code === 'CLBD' || code === 'ITBD' ? 'booked' : code === 'CLAV' || code === 'ITAV' ? 'available' : undefined;
  const amount = amountOf(textOf(at(node, 'Amt')));
  const date = dateOf(at(node, 'Dt'));
  if (kind === undefined || amount === undefined || date === undefined) return undefined;
  const signed = textOf(at(node, 'CdtDbtInd')) === 'DBIT' ? -amount : amount;
  return { kind, amount: signed === 0 ? 0 : signed, date };
}

/** The other party's name: the debtor of money coming in, the creditor of money going out (or the ultimate one). */
function counterpartyOf(details: XmlValue, credit: boolean): string {
  const parties = at(details, 'RltdPties');
  const nameOf = (role: string) => textOf(at(parties, role, 'Nm')) || textOf(at(parties, role, 'Pty', 'Nm'));
  const role = credit ? 'Dbtr' : 'Cdtr';
  return nameOf(role) || nameOf(`Ultmt${role}`);
}

/** The remittance information: unstructured lines, then structured references and texts. */
function remittanceOf(details: XmlValue): string {
  const info = at(details, 'RmtInf');
  const parts = childrenOf(info, 'Ustrd').map(textOf);
  for (const structured of childrenOf(info, 'Strd')) {
    parts.push(...childrenOf(structured, 'AddtlRmtInf').map(textOf), textOf(at(structured, 'CdtrRefInf', 'Ref')));
    for (const document of childrenOf(structured, 'RfrdDocInf')) parts.push(textOf(at(document, 'Nb')));
  }
  return clip(parts.filter((p) => p !== '').join(' '));
}

function clip(text: string): string {
  return text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS - 1)}…` : text;
}

function codeOf(node: XmlValue | undefined): BankTransactionCode | undefined {
  const code = at(node, 'BkTxCd');
  if (code === undefined) return undefined;
  return {
    domain: textOf(at(code, 'Domn', 'Cd')),
    family: textOf(at(code, 'Domn', 'Fmly', 'Cd')),
    subFamily: textOf(at(code, 'Domn', 'Fmly', 'SubFmlyCd')),
    proprietary: textOf(at(code, 'Prtry', 'Cd')),
  };
}

/**
 * An amount of a batch (a transaction's, or the stated total) in the entry's currency, counted in the entry's
 * direction (a transaction the other way counts negative); undefined when it has none in that currency.
 */
function batchAmount(amount: XmlValue | undefined, direction: XmlValue | undefined, currency: string, entryDirection: string): number | undefined {
  const value = amountOf(textOf(amount));
  const named = attributeOf(amount, 'Ccy');
  if (value === undefined || (named !== '' && named !== currency)) return undefined;
  return (textOf(direction) || entryDirection) === entryDirection ? value : -value;
}

/** An amount as a message shows it: two decimals, or as many as it has. */
function money(amount: number, currency: string): string {
  const fixed = amount.toFixed(2);
  return `${Number(fixed) === amount ? fixed : String(amount)} ${currency}`;
}

/** Why an entry is left out, as its problem says it. */
const LEFT_OUT = {
  pending: (what: string) => `Pending (${what}): left out until it is booked.`,
  information: (what: string) => `Information only (${what}), not a booking: left out.`,
  status: (what: string, status: string) => `The status ${JSON.stringify(status.slice(0, 20))} (${what}) is not a booking: left out.`,
  noAmount: (what: string) => `No amount (${what}): left out.`,
  amount: (what: string) => `The amount (${what}) cannot be read: left out.`,
  direction: (what: string) => `No credit or debit indicator (${what}): its sign is unknown, left out.`,
  date: (what: string) => `No readable booking or value date (${what}): left out.`,
} as const;

/** Reads one entry, or names in `problems` why it is left out. */
function readEntry(node: XmlValue, statement: number, line: number | undefined, currency: string, problem: NameProblem): Entry | undefined {
  const status = textOf(at(node, 'Sts', 'Cd')) || textOf(at(node, 'Sts', 'Prtry')) || textOf(at(node, 'Sts'));
  const amountText = textOf(at(node, 'Amt'));
  const unsigned = amountOf(amountText);
  const direction = textOf(at(node, 'CdtDbtInd'));
  const sign = (direction === 'DBIT' ? -1 : 1) * (/^(?:true|1)$/i.test(textOf(at(node, 'RvslInd'))) ? -1 : 1);
  // Dates are read once the entry is known to be a booking (a message reads them for itself).
  const dayOf = () => dateOf(at(node, 'BookgDt')) ?? dateOf(at(node, 'ValDt'));
  /** The entry as a message names it: its day and amount. */
  const what = () => {
    const day = dayOf();
    return `${day === undefined ? 'undated' : isoDay(day)}, ${unsigned === undefined ? amountText.slice(0, 20) || 'no amount' : money(sign * unsigned, currency)}`;
  };
  const leave = (why: keyof typeof LEFT_OUT): undefined => {
    problem(line, () => LEFT_OUT[why](what(), status));
    return undefined;
  };
  if (status === 'PDNG' || status === 'FUTR') return leave('pending');
  if (status === 'INFO') return leave('information');
  if (status !== 'BOOK' && status !== '') return leave('status');
  if (unsigned === undefined) return leave(amountText === '' ? 'noAmount' : 'amount');
  if (direction !== 'CRDT' && direction !== 'DBIT') return leave('direction');
  const booked = dateOf(at(node, 'BookgDt'));
  const value = dateOf(at(node, 'ValDt'));
  const day = booked ?? value;
  if (day === undefined) return leave('date');
  const amount = sign * unsigned === 0 ? 0 : sign * unsigned;

  const details = childrenOf(node, 'NtryDtls').flatMap((d) => childrenOf(d, 'TxDtls'));
  const batches = childrenOf(node, 'NtryDtls').flatMap((d) => childrenOf(d, 'Btch'));
  const credit = direction === 'CRDT';
  const additional = textOf(at(node, 'AddtlNtryInf'));
  let description: string;
  let memo: string;
  if (details.length <= 1 && batches.length === 0) {
    const one = details[0];
    const party = one === undefined ? '' : counterpartyOf(one, credit);
    const remittance = one === undefined ? '' : remittanceOf(one);
    const detailInfo = one === undefined ? '' : textOf(at(one, 'AddtlTxInf'));
    description = party || additional || detailInfo || remittance;
    memo = [remittance, additional, detailInfo].find((t) => t !== '' && t !== description) ?? '';
  } else {
    const parties = [...new Set(details.map((d) => counterpartyOf(d, credit)).filter((p) => p !== ''))];
    const count = details.length > 1 ? details.length : Number(textOf(at(batches[0], 'NbOfTxs'))) || details.length;
    description = parties.length === 1 ? parties[0]! : additional || `${plural(count, 'transaction', 'transactions')}`;
    const parts = details.map((d) => [counterpartyOf(d, credit), remittanceOf(d)].filter((p) => p !== '').join(': ')).filter((p) => p !== '');
    const named = parts.slice(0, BATCH_MEMO_PARTS).join('; ');
    memo = parts.length > BATCH_MEMO_PARTS ? `${named}; and ${parts.length - BATCH_MEMO_PARTS} more` : named;
    if (memo === '' && additional !== description) memo = additional;
    const mismatch = batchMismatch(details, batches, unsigned, direction, currency);
    if (mismatch) problem(line, () => `A batch (${what()}) whose ${mismatch}: the entry's amount was stored.`);
  }
  description = clip(description);
  memo = clip(memo);
  if (description === '') {
    const code = codeOf(node);
    description = code ? code.proprietary || [code.domain, code.family, code.subFamily].filter((c) => c !== '').join('/') : '';
  }

  const single = details.length === 1 ? details[0] : undefined;
  const checkNum = single === undefined ? '' : textOf(at(single, 'Refs', 'ChqNb')).replace(/^0+$/, '');
  const code = codeOf(node) ?? codeOf(single);
  const type = (code && transactionTypeOfCode(code, amount > 0)) ?? (checkNum !== '' ? 'check' : amount < 0 ? 'debit' : amount > 0 ? 'credit' : 'other');
  const reference = (text: string) => (NO_REFERENCE.test(text) ? '' : text);
  return {
    statement,
    line,
    amount,
    booked: day,
    value,
    bankRef: reference(textOf(at(node, 'AcctSvcrRef')) || (single === undefined ? '' : textOf(at(single, 'Refs', 'AcctSvcrRef')))),
    entryRef: reference(textOf(at(node, 'NtryRef'))),
    description,
    memo,
    type,
    checkNum,
  };
}

/** Cents (to five decimals, camt's most) so that sums compare exactly. */
const units = (amount: number) => Math.round(amount * 100_000);

/**
 * How a batch does not add up to its entry's (unsigned) amount: its transactions' amounts when every one has one in
 * the entry's currency, else the totals its Btch elements state; undefined when it adds up or nothing can be added.
 */
function batchMismatch(details: XmlValue[], batches: XmlValue[], amount: number, direction: string, currency: string): string | undefined {
  const sumOf = (amounts: (number | undefined)[]) =>
    amounts.length > 0 && amounts.every((a) => a !== undefined) ? amounts.reduce((total: number, a) => total + units(a!), 0) : undefined;
  const transactions =
    details.length > 1
      ? sumOf(details.map((d) => batchAmount(at(d, 'Amt') ?? at(d, 'AmtDtls', 'TxAmt', 'Amt'), at(d, 'CdtDbtInd'), currency, direction)))
      : undefined;
  if (transactions !== undefined) {
    return transactions === units(amount) ? undefined : `${details.length} transactions add up to ${money(transactions / 100_000, currency)}`;
  }
  const total = sumOf(batches.map((b) => batchAmount(at(b, 'TtlAmt'), at(b, 'CdtDbtInd'), currency, direction)));
  return total === undefined || total === units(amount) ? undefined : `stated total is ${money(total / 100_000, currency)}`;
}

/** Keys that identify one entry each in the account: never twice in one statement, and the same entry wherever they recur. */
function uniqueKeys(entries: readonly Entry[], keyOf: (e: Entry) => string): Set<string> {
  const seen = new Map<string, { statements: Set<number>; identity: string; unique: boolean }>();
  for (const e of entries) {
    const key = keyOf(e);
    if (key === '') continue;
    const identity = `${e.booked}|${e.amount}`;
    const prior = seen.get(key);
    if (!prior) seen.set(key, { statements: new Set([e.statement]), identity, unique: true });
    else {
      if (prior.statements.has(e.statement) || prior.identity !== identity) prior.unique = false;
      prior.statements.add(e.statement);
    }
  }
  return new Set([...seen].filter(([, s]) => s.unique).map(([key]) => key));
}

/**
 * The account's entries with their refs, each entry once: the bank's reference (AcctSvcrRef) with the booking day
 * when the reference is unique in the account (the day keeps a bank whose references repeat from one statement to the
 * next from merging two entries of different files), else its entry reference with the day and amount (banks number
 * entries per statement), else a key of day, amount and description with its occurrence among identical ones of the
 * statement. The same entry in two statements of the file (an overlap) gets the same ref and is kept once.
 */
function referenced(entries: readonly Entry[]): { entry: Entry; ref: string }[] {
  const entryKey = (e: Entry) => (e.entryRef === '' ? '' : `ntry:${e.entryRef}|${isoDay(e.booked)}|${e.amount}`);
  const bankRefs = uniqueKeys(entries, (e) => e.bankRef);
  const entryRefs = uniqueKeys(entries, entryKey);
  const occurrences = new Map<string, number>();
  const taken = new Map<string, number>();
  const normalised = cached(refDescription);
  const out: { entry: Entry; ref: string }[] = [];
  for (const entry of entries) {
    let ref: string;
    if (bankRefs.has(entry.bankRef)) ref = `${entry.bankRef}|${isoDay(entry.booked)}`;
    else if (entryRefs.has(entryKey(entry))) ref = entryKey(entry);
    else {
      const base = `${isoDay(entry.booked)}|${entry.amount}|${normalised(entry.description)}`;
      const counted = `${entry.statement}\u0000${base}`;
      const occurrence = (occurrences.get(counted) ?? 0) + 1;
      occurrences.set(counted, occurrence);
      ref = `${base}|${occurrence}`;
    }
    const from = taken.get(ref);
    // Another statement's entry with this ref is this one, listed again by an overlapping statement.
    if (from !== undefined && from !== entry.statement) continue;
    // Within one statement refs differ by construction, unless a bank reference looks like a key: keep both.
    const unnumbered = ref;
    for (let n = 2; taken.get(ref) === entry.statement; n++) ref = `${unnumbered}#${n}`;
    taken.set(ref, entry.statement);
    out.push({ entry, ref });
  }
  return out;
}
