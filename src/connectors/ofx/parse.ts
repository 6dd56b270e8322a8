/**
 * Reading OFX responses and files: the markup (markup.ts) into typed values. What a response holds: the sign-on
 * status, the account list (ACCTINFORS), bank, credit card and investment statements each with its own status (one
 * response may hold several, some failing), and the security list that names what investment records refer to.
 *
 * Records that lack what the specification requires (a transaction without FITID, DTPOSTED or a readable TRNAMT)
 * are left out and named in `problems`; everything else is kept as the server sent it.
 */
import { describeCurrencyValue, iso4217Code, NO_CURRENCY } from '../../platform/currency.js';
import { parseOfxDate } from './dates.js';
import { childOf, childrenOf, type OfxElement, type OfxHeader, type OfxLimits, parseOfxDocument, leafValue } from './markup.js';
import { storableText } from '../../platform/storable-text.js';

export {
  decodeOfxBytes,
  MAX_OFX_CHARS,
  MAX_OFX_DEPTH,
  MAX_OFX_ELEMENTS,
  MAX_OFX_VALUE_CHARS,
  type OfxDocument,
  type OfxElement,
  type OfxHeader,
  type OfxLimits,
  OfxParseError,
  parseOfxDocument,
} from './markup.js';

export interface OfxStatus {
  code: number;
  /** INFO, WARN or ERROR. */
  severity: string;
  message?: string;
}

/** Bank account types of BANKACCTFROM. */
export type OfxBankAccountType = 'CHECKING' | 'SAVINGS' | 'MONEYMRKT' | 'CREDITLINE' | 'CD';

/** Which account a record is about: BANKACCTFROM, CCACCTFROM or INVACCTFROM. */
export type OfxAccountId =
  | { kind: 'bank'; bankId: string; branchId?: string; acctId: string; acctType: OfxBankAccountType }
  | { kind: 'creditCard'; acctId: string }
  | { kind: 'investment'; brokerId: string; acctId: string };

export interface OfxAccountInfo {
  account: OfxAccountId;
  /** DESC: the institution's name for the account. */
  description?: string;
  phone?: string;
  /** SVCSTATUS: AVAIL, PEND or ACTIVE. */
  serviceStatus?: string;
  /** SUPTXDL: whether the account's transactions can be downloaded. */
  supportsDownload: boolean;
  /** USPRODUCTTYPE of investment accounts: 401K, 403B, IRA, KEOGH, SARSEP, SIMPLE, NORMAL, TDA, TRUST, UGMA. */
  productType?: string;
  /** CHECKING of investment accounts: whether checks can be written on the account. */
  checkWriting?: boolean;
  /** OPTIONLEVEL of investment accounts: the option trading the account allows, as the institution words it. */
  optionLevel?: string;
}

export interface OfxBalance {
  amount: number;
  asOf?: number;
}

/** One STMTTRN. */
export interface OfxTransaction {
  /** TRNTYPE, upper case. */
  type: string;
  posted: number;
  /** DTUSER: when the user made the transaction, if the server says. */
  user?: number;
  /** DTAVAIL: when the funds are available. */
  available?: number;
  amount: number;
  fitId: string;
  /** CORRECTFITID and CORRECTACTION (REPLACE or DELETE): this record corrects an earlier one. */
  correctFitId?: string;
  correctAction?: string;
  serverId?: string;
  checkNum?: string;
  refNum?: string;
  sic?: string;
  payeeId?: string;
  name?: string;
  /** PAYEE/NAME, for servers that send a PAYEE aggregate instead of NAME. */
  payee?: string;
  memo?: string;
  /** CURRENCY/CURSYM or ORIGCURRENCY/CURSYM when the transaction is in another currency: an ISO 4217 code. */
  currency?: string;
}

export interface OfxBankStatement {
  kind: 'bank' | 'creditCard';
  account: OfxAccountId;
  currency: string;
  start?: number;
  end?: number;
  transactions: OfxTransaction[];
  ledgerBalance?: OfxBalance;
  availableBalance?: OfxBalance;
}

export interface OfxSecurityId {
  uniqueId: string;
  /** CUSIP, ISIN, or the institution's own scheme. */
  uniqueIdType: string;
}

/** One entry of INVTRANLIST: BUYSTOCK, SELLMF, INCOME, REINVEST, TRANSFER, INVBANKTRAN, ... */
export interface OfxInvestmentTransaction {
  kind: string;
  fitId: string;
  tradeDate: number;
  settleDate?: number;
  memo?: string;
  security?: OfxSecurityId;
  units?: number;
  unitPrice?: number;
  /** TOTAL: the cash effect, negative for buys. */
  total?: number;
  commission?: number;
  fees?: number;
  taxes?: number;
  load?: number;
  /** INCOMETYPE of INCOME and REINVEST: CGLONG, CGSHORT, DIV, INTEREST, MISC. */
  incomeType?: string;
  /** BUYTYPE, SELLTYPE, OPTBUYTYPE, OPTSELLTYPE or TFERACTION. */
  action?: string;
  /** SUBACCTSEC, SUBACCTFUND or SUBACCTTO: CASH, MARGIN, SHORT, OTHER. */
  subAccount?: string;
  /** The bank transaction of an INVBANKTRAN (cash moving in or out of the account). */
  bank?: OfxTransaction;
}

/** One entry of INVPOSLIST: POSSTOCK, POSMF, POSDEBT, POSOPT or POSOTHER. */
export interface OfxPosition {
  kind: string;
  security: OfxSecurityId;
  /** HELDINACCT: CASH, MARGIN, SHORT, OTHER. */
  heldIn: string;
  /** POSTYPE: LONG or SHORT. */
  positionType: string;
  units: number;
  unitPrice: number;
  marketValue: number;
  priceAsOf?: number;
  /** AVGCOSTBASIS (OFX 2.x): the average cost of one unit. */
  averageCostBasis?: number;
  memo?: string;
  reinvestDividends?: boolean;
  reinvestCapitalGains?: boolean;
}

export interface OfxInvestmentBalance {
  availableCash: number;
  marginBalance: number;
  shortBalance: number;
  buyingPower?: number;
}

export interface OfxInvestmentStatement {
  kind: 'investment';
  account: OfxAccountId;
  currency: string;
  asOf?: number;
  start?: number;
  end?: number;
  transactions: OfxInvestmentTransaction[];
  positions: OfxPosition[];
  balance?: OfxInvestmentBalance;
}

/** One entry of SECLIST: STOCKINFO, MFINFO, DEBTINFO, OPTINFO or OTHERINFO. */
export interface OfxSecurity {
  kind: string;
  id: OfxSecurityId;
  name: string;
  ticker?: string;
  fiId?: string;
  unitPrice?: number;
  priceAsOf?: number;
  memo?: string;
  /** STOCKTYPE, MFTYPE, DEBTTYPE, OPTTYPE or TYPEDESC. */
  subType?: string;
  /** DTMAT of debt. */
  maturityDate?: number;
  /** DTEXPIRE of options. */
  expirationDate?: number;
  parValue?: number;
  couponRate?: number;
  strikePrice?: number;
  yield?: number;
}

/** A statement transaction's answer: its status, and the statement when the server could give one. */
export interface OfxStatementResponse {
  kind: 'bank' | 'creditCard' | 'investment';
  trnuid?: string;
  status: OfxStatus;
  statement?: OfxBankStatement | OfxInvestmentStatement;
}

export interface OfxSignon {
  status: OfxStatus;
  serverDate?: number;
  language?: string;
  org?: string;
  fid?: string;
  /** INTU.BID: the Intuit bank id in QFX files and Quicken-style responses. */
  intuBid?: string;
}

export interface OfxAccountInfoResponse {
  trnuid?: string;
  status: OfxStatus;
  accounts: OfxAccountInfo[];
}

export interface OfxResponse {
  header: OfxHeader;
  signon: OfxSignon | undefined;
  accountInfo: OfxAccountInfoResponse | undefined;
  statements: OfxStatementResponse[];
  securities: OfxSecurity[];
  /** Records left out, and why. */
  problems: string[];
}

/** The problems of a response, the first hundred in full and the rest counted. */
class Problems {
  static readonly MAX = 100;
  readonly items: string[] = [];
  private dropped = 0;

  add(message: () => string): void {
    if (this.items.length < Problems.MAX) this.items.push(message());
    else this.dropped++;
  }

  list(): string[] {
    return this.dropped > 0 ? [...this.items, `${this.dropped} more records were left out for the same kinds of reasons`] : this.items;
  }
}

const AMOUNT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * An OFX amount. The specification allows a comma as the decimal mark, so a lone comma is one; servers also send
 * thousands separators next to a decimal mark ("1,234.56", "1.234,56") and leading plus signs. Undefined when it is
 * not a number.
 */
export function parseOfxAmount(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  let text = value.trim().replace(/\s+/g, '');
  if (text.length === 0 || text.length > 40) return undefined;
  const comma = text.lastIndexOf(',');
  const dot = text.lastIndexOf('.');
  if (comma >= 0 && dot >= 0) text = comma > dot ? text.replace(/\./g, '').replace(',', '.') : text.replace(/,/g, '');
  else if (comma >= 0) text = text.indexOf(',') === comma ? text.replace(',', '.') : text.replace(/,/g, '');
  if (!AMOUNT.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function amountOf(element: OfxElement | undefined, ...path: string[]): number | undefined {
  return parseOfxAmount(leafValue(element, ...path));
}

function dateOf(element: OfxElement | undefined, ...path: string[]): number | undefined {
  return parseOfxDate(leafValue(element, ...path));
}

function statusOf(element: OfxElement | undefined): OfxStatus {
  const status = childOf(element, 'STATUS');
  const code = Number(leafValue(status, 'CODE'));
  // A wrapper without a readable status is taken as the general error, never as success.
  if (!status || !Number.isInteger(code)) return { code: 2000, severity: 'ERROR', message: 'The response carries no readable status' };
  const result: OfxStatus = { code, severity: (leafValue(status, 'SEVERITY') ?? (code === 0 ? 'INFO' : 'ERROR')).toUpperCase() };
  const message = leafValue(status, 'MESSAGE');
  if (message !== undefined) result.message = message;
  return result;
}

const BANK_ACCOUNT_TYPES: ReadonlySet<string> = new Set(['CHECKING', 'SAVINGS', 'MONEYMRKT', 'CREDITLINE', 'CD']);

export function isOfxBankAccountType(value: unknown): value is OfxBankAccountType {
  return typeof value === 'string' && BANK_ACCOUNT_TYPES.has(value);
}

/** The account of a BANKACCTFROM, CCACCTFROM or INVACCTFROM aggregate. */
function accountOf(element: OfxElement | undefined): OfxAccountId | undefined {
  if (!element) return undefined;
  const acctId = leafValue(element, 'ACCTID');
  if (acctId === undefined) return undefined;
  if (element.name === 'BANKACCTFROM') {
    const acctType = (leafValue(element, 'ACCTTYPE') ?? 'CHECKING').toUpperCase();
    const account: OfxAccountId = {
      kind: 'bank',
      bankId: leafValue(element, 'BANKID') ?? '',
      acctId,
      acctType: isOfxBankAccountType(acctType) ? acctType : 'CHECKING',
    };
    const branchId = leafValue(element, 'BRANCHID');
    if (branchId !== undefined) account.branchId = branchId;
    return account;
  }
  if (element.name === 'CCACCTFROM') return { kind: 'creditCard', acctId };
  if (element.name === 'INVACCTFROM') return { kind: 'investment', brokerId: leafValue(element, 'BROKERID') ?? '', acctId };
  return undefined;
}

function describeAccount(account: OfxAccountId | undefined): string {
  if (!account) return 'an unnamed account';
  return `account ${account.acctId}`;
}

function setIf<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

/**
 * A statement's currency (CURDEF) as an ISO 4217 code, any letter case: USD when there is none (as US servers that
 * leave it out mean); a value that is not a code is not stored: the amounts are kept without a currency (XXX) and
 * the problem is named.
 */
function statementCurrencyOf(element: OfxElement, where: string, problems: Problems): string {
  const value = leafValue(element, 'CURDEF');
  if (value === undefined) return 'USD';
  const code = iso4217Code(value);
  if (code !== undefined) return code;
  problems.add(
    () => `The currency (CURDEF) of ${where} is ${describeCurrencyValue(value)}, not an ISO 4217 code: its amounts were kept without a currency (XXX)`,
  );
  return NO_CURRENCY;
}

/**
 * A transaction's own currency: CURRENCY says its amount is in that currency, ORIGCURRENCY that it was converted into
 * the statement's. Amounts are stored in the account's currency, so one in another currency is named in problems.
 */
function transactionCurrencyOf(element: OfxElement, fitId: string, where: string, statementCurrency: string, problems: Problems): string | undefined {
  const own = leafValue(element, 'CURRENCY', 'CURSYM');
  const value = own ?? leafValue(element, 'ORIGCURRENCY', 'CURSYM');
  if (value === undefined) return undefined;
  const code = iso4217Code(value);
  if (code === undefined) {
    problems.add(
      () =>
        `The currency of transaction ${fitId} of ${where} is ${describeCurrencyValue(value)}, not an ISO 4217 code: its amount was read in the statement's currency`,
    );
    return undefined;
  }
  if (own !== undefined && code !== statementCurrency && statementCurrency !== NO_CURRENCY) {
    problems.add(() => `Transaction ${fitId} of ${where} is in ${code}, not in the account's ${statementCurrency}: its amount was kept as the file gives it`);
  }
  return code;
}

/** A FITID for a transaction the server gave none: its posting day, amount and name, marked so no server FITID can equal it. */
function derivedFitId(posted: number, amount: number, name: string): string {
  const day = new Date(posted * 1000).toISOString().slice(0, 10);
  return `~${day}|${amount}|${name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim().slice(0, 64)}`;
}

function transactionOf(element: OfxElement, where: string, statementCurrency: string, problems: Problems): OfxTransaction | undefined {
  const posted = dateOf(element, 'DTPOSTED');
  const amount = amountOf(element, 'TRNAMT');
  const given = leafValue(element, 'FITID');
  if (posted === undefined || amount === undefined) {
    const missing = [posted === undefined && 'a readable DTPOSTED', amount === undefined && 'a readable TRNAMT'].filter(Boolean);
    problems.add(() => `A transaction${given ? ` (FITID ${given})` : ''} of ${where} has no ${missing.join(', no ')}; left out`);
    return undefined;
  }
  // Without a FITID, the same key a CSV row gets (its date, amount and name; repeats numbered when refs are given).
  const fitId = given || derivedFitId(posted, amount, leafValue(element, 'NAME') ?? leafValue(element, 'MEMO') ?? '');
  if (!given) problems.add(() => `A transaction of ${where} has no FITID; it was given one from its date, amount and name`);
  const t: OfxTransaction = { type: (leafValue(element, 'TRNTYPE') ?? 'OTHER').toUpperCase(), posted, amount, fitId };
  setIf(t, 'user', dateOf(element, 'DTUSER'));
  setIf(t, 'available', dateOf(element, 'DTAVAIL'));
  setIf(t, 'correctFitId', leafValue(element, 'CORRECTFITID'));
  setIf(t, 'correctAction', leafValue(element, 'CORRECTACTION')?.toUpperCase());
  setIf(t, 'serverId', leafValue(element, 'SRVRTID'));
  setIf(t, 'checkNum', leafValue(element, 'CHECKNUM'));
  setIf(t, 'refNum', leafValue(element, 'REFNUM'));
  setIf(t, 'sic', leafValue(element, 'SIC'));
  setIf(t, 'payeeId', leafValue(element, 'PAYEEID'));
  // EXTDNAME (OFX 2, up to 100 characters) is the whole of a NAME cut at its 32: the description when it continues NAME.
  const name = leafValue(element, 'NAME');
  const extended = leafValue(element, 'EXTDNAME');
  setIf(t, 'name', extended !== undefined && (name === undefined || extended.startsWith(name)) ? extended : name);
  setIf(t, 'payee', leafValue(element, 'PAYEE', 'NAME'));
  setIf(t, 'memo', leafValue(element, 'MEMO'));
  setIf(t, 'currency', transactionCurrencyOf(element, fitId, where, statementCurrency, problems));
  return t;
}

function balanceOf(element: OfxElement | undefined): OfxBalance | undefined {
  const amount = amountOf(element, 'BALAMT');
  if (amount === undefined) return undefined;
  const balance: OfxBalance = { amount };
  setIf(balance, 'asOf', dateOf(element, 'DTASOF'));
  return balance;
}

function bankStatementOf(element: OfxElement, kind: 'bank' | 'creditCard', problems: Problems): OfxBankStatement | undefined {
  const account = accountOf(childOf(element, kind === 'bank' ? 'BANKACCTFROM' : 'CCACCTFROM'));
  if (!account) {
    problems.add(() => `A ${kind === 'bank' ? 'bank' : 'credit card'} statement without an account id; left out`);
    return undefined;
  }
  const list = childOf(element, 'BANKTRANLIST');
  const where = describeAccount(account);
  const statement: OfxBankStatement = { kind, account, currency: statementCurrencyOf(element, where, problems), transactions: [] };
  // A list the bank left unclosed ends where the statement does, so its entries were read as the statement's.
  const stray = childrenOf(element, 'STMTTRN');
  if (stray.length > 0) problems.add(() => `The transaction list of ${where} is not closed; its ${stray.length} transactions were read all the same`);
  setIf(statement, 'start', dateOf(list, 'DTSTART') ?? (stray.length > 0 ? dateOf(element, 'DTSTART') : undefined));
  setIf(statement, 'end', dateOf(list, 'DTEND') ?? (stray.length > 0 ? dateOf(element, 'DTEND') : undefined));
  for (const entry of [...childrenOf(list, 'STMTTRN'), ...stray]) {
    const t = transactionOf(entry, where, statement.currency, problems);
    if (t) statement.transactions.push(t);
  }
  setIf(statement, 'ledgerBalance', balanceOf(childOf(element, 'LEDGERBAL')));
  setIf(statement, 'availableBalance', balanceOf(childOf(element, 'AVAILBAL')));
  return statement;
}

function securityIdOf(element: OfxElement | undefined): OfxSecurityId | undefined {
  const id = childOf(element, 'SECID');
  const uniqueId = leafValue(id, 'UNIQUEID');
  if (uniqueId === undefined) return undefined;
  return { uniqueId, uniqueIdType: (leafValue(id, 'UNIQUEIDTYPE') ?? 'CUSIP').toUpperCase() };
}

/** The value of the first of these leaves found in the entry or in its INVBUY/INVSELL aggregate. */
function investmentField(entry: OfxElement, inner: OfxElement | undefined, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = leafValue(entry, name) ?? leafValue(inner, name);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The entries of INVTRANLIST (OFX 2.2, 13.9.2.4). */
const INVESTMENT_TRANSACTIONS =
  /^(?:BUY(?:DEBT|MF|OPT|OTHER|STOCK)|SELL(?:DEBT|MF|OPT|OTHER|STOCK)|CLOSUREOPT|INCOME|INVEXPENSE|JRNLFUND|JRNLSEC|MARGININTEREST|REINVEST|RETOFCAP|SPLIT|TRANSFER|INVBANKTRAN)$/;

function investmentTransactionOf(entry: OfxElement, where: string, statementCurrency: string, problems: Problems): OfxInvestmentTransaction | undefined {
  if (entry.name === 'INVBANKTRAN') {
    const stmttrn = childOf(entry, 'STMTTRN');
    const bank = stmttrn ? transactionOf(stmttrn, where, statementCurrency, problems) : undefined;
    if (!bank) return undefined;
    const t: OfxInvestmentTransaction = { kind: 'INVBANKTRAN', fitId: bank.fitId, tradeDate: bank.user ?? bank.posted, total: bank.amount, bank };
    setIf(t, 'memo', bank.memo);
    setIf(t, 'subAccount', leafValue(entry, 'SUBACCTFUND')?.toUpperCase());
    return t;
  }
  const inner = childOf(entry, 'INVBUY') ?? childOf(entry, 'INVSELL');
  const invtran = childOf(entry, 'INVTRAN') ?? childOf(inner, 'INVTRAN');
  const fitId = leafValue(invtran, 'FITID');
  const tradeDate = dateOf(invtran, 'DTTRADE');
  if (fitId === undefined || tradeDate === undefined) {
    const missing = [fitId === undefined && 'FITID', tradeDate === undefined && 'a readable DTTRADE'].filter(Boolean);
    problems.add(() => `An investment transaction (${entry.name}${fitId ? ` ${fitId}` : ''}) of ${where} has no ${missing.join(', no ')}; left out`);
    return undefined;
  }
  const number = (...names: string[]) => parseOfxAmount(investmentField(entry, inner, ...names));
  const t: OfxInvestmentTransaction = { kind: entry.name, fitId, tradeDate };
  setIf(t, 'settleDate', dateOf(invtran, 'DTSETTLE'));
  setIf(t, 'memo', leafValue(invtran, 'MEMO'));
  setIf(t, 'security', securityIdOf(entry) ?? securityIdOf(inner));
  setIf(t, 'units', number('UNITS', 'NEWUNITS'));
  setIf(t, 'unitPrice', number('UNITPRICE'));
  setIf(t, 'total', number('TOTAL'));
  setIf(t, 'commission', number('COMMISSION'));
  setIf(t, 'fees', number('FEES'));
  setIf(t, 'taxes', number('TAXES'));
  setIf(t, 'load', number('LOAD'));
  setIf(t, 'incomeType', investmentField(entry, inner, 'INCOMETYPE')?.toUpperCase());
  setIf(t, 'action', investmentField(entry, inner, 'BUYTYPE', 'SELLTYPE', 'OPTBUYTYPE', 'OPTSELLTYPE', 'TFERACTION', 'OPTACTION')?.toUpperCase());
  setIf(t, 'subAccount', investmentField(entry, inner, 'SUBACCTSEC', 'SUBACCTFUND', 'SUBACCTTO')?.toUpperCase());
  return t;
}

function positionOf(entry: OfxElement, where: string, problems: Problems): OfxPosition | undefined {
  const invpos = childOf(entry, 'INVPOS');
  const security = securityIdOf(invpos);
  const units = amountOf(invpos, 'UNITS');
  const unitPrice = amountOf(invpos, 'UNITPRICE');
  const marketValue = amountOf(invpos, 'MKTVAL');
  if (!security || units === undefined || unitPrice === undefined || marketValue === undefined) {
    problems.add(() => `A position (${entry.name}) of ${where} has no security id, units, unit price or market value; left out`);
    return undefined;
  }
  const p: OfxPosition = {
    kind: entry.name,
    security,
    heldIn: (leafValue(invpos, 'HELDINACCT') ?? 'CASH').toUpperCase(),
    positionType: (leafValue(invpos, 'POSTYPE') ?? 'LONG').toUpperCase(),
    units,
    unitPrice,
    marketValue,
  };
  setIf(p, 'priceAsOf', dateOf(invpos, 'DTPRICEASOF'));
  setIf(p, 'averageCostBasis', amountOf(invpos, 'AVGCOSTBASIS'));
  setIf(p, 'memo', leafValue(invpos, 'MEMO'));
  const reinvDiv = leafValue(entry, 'REINVDIV');
  if (reinvDiv !== undefined) p.reinvestDividends = reinvDiv.toUpperCase() === 'Y';
  const reinvCg = leafValue(entry, 'REINVCG');
  if (reinvCg !== undefined) p.reinvestCapitalGains = reinvCg.toUpperCase() === 'Y';
  return p;
}

function investmentStatementOf(element: OfxElement, problems: Problems): OfxInvestmentStatement | undefined {
  const account = accountOf(childOf(element, 'INVACCTFROM'));
  if (!account) {
    problems.add(() => 'An investment statement without an account id; left out');
    return undefined;
  }
  const where = describeAccount(account);
  const statement: OfxInvestmentStatement = {
    kind: 'investment',
    account,
    currency: statementCurrencyOf(element, where, problems),
    transactions: [],
    positions: [],
  };
  setIf(statement, 'asOf', dateOf(element, 'DTASOF'));
  const list = childOf(element, 'INVTRANLIST');
  // Lists the broker left unclosed end where the statement does, so their entries were read as the statement's.
  const strayTransactions = element.children.filter((c) => INVESTMENT_TRANSACTIONS.test(c.name));
  const strayPositions = element.children.filter((c) => /^POS(?:STOCK|MF|DEBT|OPT|OTHER)$/.test(c.name));
  if (strayTransactions.length > 0)
    problems.add(() => `The transaction list of ${where} is not closed; its ${strayTransactions.length} transactions were read all the same`);
  if (strayPositions.length > 0)
    problems.add(() => `The position list of ${where} is not closed; its ${strayPositions.length} positions were read all the same`);
  setIf(statement, 'start', dateOf(list, 'DTSTART') ?? (strayTransactions.length > 0 ? dateOf(element, 'DTSTART') : undefined));
  setIf(statement, 'end', dateOf(list, 'DTEND') ?? (strayTransactions.length > 0 ? dateOf(element, 'DTEND') : undefined));
  for (const entry of [...(list?.children ?? []), ...strayTransactions]) {
    if (entry.name === 'DTSTART' || entry.name === 'DTEND') continue;
    const t = investmentTransactionOf(entry, where, statement.currency, problems);
    if (t) statement.transactions.push(t);
  }
  for (const entry of [...(childOf(element, 'INVPOSLIST')?.children ?? []), ...strayPositions]) {
    const p = positionOf(entry, where, problems);
    if (p) statement.positions.push(p);
  }
  const bal = childOf(element, 'INVBAL');
  if (bal) {
    const balance: OfxInvestmentBalance = {
      availableCash: amountOf(bal, 'AVAILCASH') ?? 0,
      marginBalance: amountOf(bal, 'MARGINBALANCE') ?? 0,
      shortBalance: amountOf(bal, 'SHORTBALANCE') ?? 0,
    };
    setIf(balance, 'buyingPower', amountOf(bal, 'BUYPOWER'));
    statement.balance = balance;
  }
  return statement;
}

function securityOf(entry: OfxElement): OfxSecurity | undefined {
  const info = childOf(entry, 'SECINFO');
  const id = securityIdOf(info);
  if (!id) return undefined;
  const s: OfxSecurity = { kind: entry.name, id, name: leafValue(info, 'SECNAME') ?? id.uniqueId };
  setIf(s, 'ticker', leafValue(info, 'TICKER'));
  setIf(s, 'fiId', leafValue(info, 'FIID'));
  setIf(s, 'unitPrice', amountOf(info, 'UNITPRICE'));
  setIf(s, 'priceAsOf', dateOf(info, 'DTASOF'));
  setIf(s, 'memo', leafValue(info, 'MEMO'));
  setIf(
    s,
    'subType',
    leafValue(entry, 'STOCKTYPE') ?? leafValue(entry, 'MFTYPE') ?? leafValue(entry, 'DEBTTYPE') ?? leafValue(entry, 'OPTTYPE') ?? leafValue(entry, 'TYPEDESC'),
  );
  setIf(s, 'maturityDate', dateOf(entry, 'DTMAT'));
  setIf(s, 'expirationDate', dateOf(entry, 'DTEXPIRE'));
  setIf(s, 'parValue', amountOf(entry, 'PARVALUE'));
  setIf(s, 'couponRate', amountOf(entry, 'COUPONRT'));
  setIf(s, 'strikePrice', amountOf(entry, 'STRIKEPRICE'));
  setIf(s, 'yield', amountOf(entry, 'YIELD'));
  return s;
}

function accountInfoOf(element: OfxElement): OfxAccountInfo[] {
  const found: OfxAccountInfo[] = [];
  for (const acctinfo of childrenOf(element, 'ACCTINFO')) {
    for (const [wrapper, from] of [
      ['BANKACCTINFO', 'BANKACCTFROM'],
      ['CCACCTINFO', 'CCACCTFROM'],
      ['INVACCTINFO', 'INVACCTFROM'],
    ] as const) {
      const info = childOf(acctinfo, wrapper);
      const account = accountOf(childOf(info, from));
      if (!info || !account) continue;
      const entry: OfxAccountInfo = { account, supportsDownload: (leafValue(info, 'SUPTXDL') ?? 'Y').toUpperCase() === 'Y' };
      setIf(entry, 'description', leafValue(acctinfo, 'DESC'));
      setIf(entry, 'phone', leafValue(acctinfo, 'PHONE'));
      setIf(entry, 'serviceStatus', leafValue(info, 'SVCSTATUS')?.toUpperCase());
      setIf(entry, 'productType', leafValue(info, 'USPRODUCTTYPE')?.toUpperCase());
      if (wrapper === 'INVACCTINFO') {
        const checking = leafValue(info, 'CHECKING');
        if (checking !== undefined) entry.checkWriting = checking.toUpperCase() === 'Y';
        setIf(entry, 'optionLevel', leafValue(info, 'OPTIONLEVEL'));
      }
      found.push(entry);
    }
  }
  return found;
}

const STATEMENT_WRAPPERS = [
  ['STMTTRNRS', 'STMTRS', 'bank'],
  ['CCSTMTTRNRS', 'CCSTMTRS', 'creditCard'],
  ['INVSTMTTRNRS', 'INVSTMTRS', 'investment'],
] as const;

/** The typed content of an OFX document: throws OfxParseError when the text is not an OFX document at all. */
export function readOfxResponse(text: string, limits?: Partial<OfxLimits>): OfxResponse {
  // A server's or a file's NULs would reach the database (storableText).
  const { header, root } = parseOfxDocument(storableText(text), limits);
  const problems = new Problems();
  const response: OfxResponse = { header, signon: undefined, accountInfo: undefined, statements: [], securities: [], problems: [] };

  const sonrs = childOf(childOf(root, 'SIGNONMSGSRSV1'), 'SONRS');
  if (sonrs) {
    const signon: OfxSignon = { status: statusOf(sonrs) };
    setIf(signon, 'serverDate', dateOf(sonrs, 'DTSERVER'));
    setIf(signon, 'language', leafValue(sonrs, 'LANGUAGE'));
    setIf(signon, 'org', leafValue(sonrs, 'FI', 'ORG'));
    setIf(signon, 'fid', leafValue(sonrs, 'FI', 'FID'));
    setIf(signon, 'intuBid', leafValue(sonrs, 'INTU.BID'));
    response.signon = signon;
  }

  for (const messageSet of root.children) {
    if (messageSet.name === 'SIGNONMSGSRSV1' || messageSet.value !== undefined) continue;
    for (const wrapper of messageSet.children) {
      if (wrapper.name === 'ACCTINFOTRNRS') {
        const info: OfxAccountInfoResponse = { status: statusOf(wrapper), accounts: accountInfoOf(childOf(wrapper, 'ACCTINFORS') ?? wrapper) };
        setIf(info, 'trnuid', leafValue(wrapper, 'TRNUID'));
        if (response.accountInfo) response.accountInfo.accounts.push(...info.accounts);
        else response.accountInfo = info;
        continue;
      }
      if (wrapper.name === 'SECLIST') {
        for (const entry of wrapper.children) {
          const security = securityOf(entry);
          if (security) response.securities.push(security);
        }
        continue;
      }
      for (const [trnrs, rs, kind] of STATEMENT_WRAPPERS) {
        // Files sometimes hold a bare statement without its transaction wrapper.
        const bare = wrapper.name === rs;
        if (wrapper.name !== trnrs && !bare) continue;
        const result: OfxStatementResponse = { kind, status: bare ? { code: 0, severity: 'INFO' } : statusOf(wrapper) };
        setIf(result, 'trnuid', leafValue(wrapper, 'TRNUID'));
        const body = bare ? wrapper : childOf(wrapper, rs);
        if (body) {
          const statement = kind === 'investment' ? investmentStatementOf(body, problems) : bankStatementOf(body, kind, problems);
          if (statement) result.statement = statement;
        }
        response.statements.push(result);
      }
    }
  }
  response.problems = problems.list();
  return response;
}
