/**
 * The SimpleFIN wire format of `GET /accounts` (an Account Set), read strictly: every field the protocol defines
 * must have its defined type, and a response that breaks that is refused as a whole rather than half-read, since a
 * misread amount is worse than a visible failure. Fields the protocol does not define (`extra`, newer additions)
 * are ignored. Both shapes are read: v1 (`org` per account, `errors` strings) and v2 (`connections`, `conn_id`,
 * structured `errlist`).
 */

/** The organisation of a v1 account. */
export interface SimplefinOrg {
  domain?: string;
  name?: string;
  sfinUrl?: string;
  id?: string;
  url?: string;
}

/** A v2 connection: one login at one institution. */
export interface SimplefinConnection {
  connId: string;
  name: string;
  orgId?: string;
  orgName?: string;
  orgUrl?: string;
  sfinUrl?: string;
}

export interface SimplefinTransaction {
  /** Unique within its account only. */
  id: string;
  /** Epoch seconds; 0 while pending at some bridges. */
  posted: number;
  /** Numeric string as sent, e.g. "-12.34": positive is money into the account. */
  amount: string;
  description: string;
  transactedAt?: number;
  pending: boolean;
  payee?: string;
  memo?: string;
}

export interface SimplefinAccount {
  id: string;
  name: string;
  /** ISO 4217 code, or the URL of a custom currency. */
  currency: string;
  /** Numeric string. */
  balance: string;
  /** Numeric string; absent when it equals the balance. */
  availableBalance?: string;
  balanceDate: number;
  org?: SimplefinOrg;
  connId?: string;
  connName?: string;
  transactions: SimplefinTransaction[];
}

/** One error the bridge reported: a v2 errlist entry (with a code), or a v1 string (without). */
export interface SimplefinBridgeError {
  code?: string;
  message: string;
  connId?: string;
  accountId?: string;
}

export interface SimplefinAccountSet {
  accounts: SimplefinAccount[];
  connections: SimplefinConnection[];
  errors: SimplefinBridgeError[];
  /** 2 when the bridge answered in the v2 shape (an `errlist`), else 1. */
  version: 1 | 2;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; detail: string };

/** Ids longer than this are not ids but a broken or hostile response. */
const MAX_ID_LENGTH = 255;
/** Protocol text fields are short; anything longer is cut, not refused. */
const MAX_TEXT_LENGTH = 2000;
const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

class WireError extends Error {}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function field(object: Json, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function object(value: unknown, path: string): Json {
  if (!isObject(value)) throw new WireError(`${path} is not an object`);
  return value;
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new WireError(`${path} is not an array`);
  return value;
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new WireError(`${path} is not a string`);
  return value.length > MAX_TEXT_LENGTH ? value.slice(0, MAX_TEXT_LENGTH) : value;
}

/** Optional fields: absent and null are the same (many JSON writers emit null for "not given"). */
function optionalText(value: unknown, path: string): string | undefined {
  return value === undefined || value === null ? undefined : text(value, path);
}

function id(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new WireError(`${path} is not a non-empty string`);
  if (value.length > MAX_ID_LENGTH) throw new WireError(`${path} is too long`);
  return value;
}

function numeric(value: unknown, path: string): string {
  if (typeof value !== 'string' || !NUMERIC.test(value.trim())) throw new WireError(`${path} is not a numeric string`);
  return value.trim();
}

function epoch(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new WireError(`${path} is not a timestamp`);
  return value;
}

function optionalEpoch(value: unknown, path: string): number | undefined {
  return value === undefined || value === null ? undefined : epoch(value, path);
}

function optionalBoolean(value: unknown, path: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new WireError(`${path} is not a boolean`);
  return value;
}

/** Copies the defined optional fields only, so values stay JSON (no `undefined` members). */
function defined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

function readTransaction(value: unknown, path: string): SimplefinTransaction {
  const t = object(value, path);
  return defined({
    id: id(field(t, 'id'), `${path}.id`),
    posted: epoch(field(t, 'posted'), `${path}.posted`),
    amount: numeric(field(t, 'amount'), `${path}.amount`),
    description: text(field(t, 'description'), `${path}.description`),
    transactedAt: optionalEpoch(field(t, 'transacted_at'), `${path}.transacted_at`),
    pending: optionalBoolean(field(t, 'pending'), `${path}.pending`) ?? false,
    payee: optionalText(field(t, 'payee'), `${path}.payee`),
    memo: optionalText(field(t, 'memo'), `${path}.memo`),
  });
}

function readOrg(value: unknown, path: string): SimplefinOrg | undefined {
  if (value === undefined || value === null) return undefined;
  const o = object(value, path);
  return defined({
    domain: optionalText(field(o, 'domain'), `${path}.domain`),
    name: optionalText(field(o, 'name'), `${path}.name`),
    sfinUrl: optionalText(field(o, 'sfin-url'), `${path}.sfin-url`),
    id: optionalText(field(o, 'id'), `${path}.id`),
    url: optionalText(field(o, 'url'), `${path}.url`),
  });
}

function readAccount(value: unknown, path: string): SimplefinAccount {
  const a = object(value, path);
  const transactions = field(a, 'transactions');
  return defined({
    id: id(field(a, 'id'), `${path}.id`),
    name: text(field(a, 'name'), `${path}.name`),
    currency: text(field(a, 'currency'), `${path}.currency`),
    balance: numeric(field(a, 'balance'), `${path}.balance`),
    availableBalance: field(a, 'available-balance') == null ? undefined : numeric(field(a, 'available-balance'), `${path}.available-balance`),
    balanceDate: epoch(field(a, 'balance-date'), `${path}.balance-date`),
    org: readOrg(field(a, 'org'), `${path}.org`),
    connId: field(a, 'conn_id') == null ? undefined : id(field(a, 'conn_id'), `${path}.conn_id`),
    connName: optionalText(field(a, 'conn_name'), `${path}.conn_name`),
    transactions:
      transactions === undefined || transactions === null
        ? []
        : array(transactions, `${path}.transactions`).map((t, i) => readTransaction(t, `${path}.transactions[${i}]`)),
  });
}

function readConnection(value: unknown, path: string): SimplefinConnection {
  const c = object(value, path);
  return defined({
    connId: id(field(c, 'conn_id'), `${path}.conn_id`),
    name: text(field(c, 'name'), `${path}.name`),
    orgId: optionalText(field(c, 'org_id'), `${path}.org_id`),
    orgName: optionalText(field(c, 'org_name'), `${path}.org_name`),
    orgUrl: optionalText(field(c, 'org_url'), `${path}.org_url`),
    sfinUrl: optionalText(field(c, 'sfin_url'), `${path}.sfin_url`),
  });
}

/** A v2 error; the protocol's table names the text `msg`, its examples `message`: either is read. */
function readErrlistEntry(value: unknown, path: string): SimplefinBridgeError {
  const e = object(value, path);
  const code = text(field(e, 'code'), `${path}.code`);
  const message = optionalText(field(e, 'msg'), `${path}.msg`) ?? optionalText(field(e, 'message'), `${path}.message`) ?? code;
  return defined({
    code,
    message,
    connId: optionalText(field(e, 'conn_id'), `${path}.conn_id`),
    accountId: optionalText(field(e, 'account_id'), `${path}.account_id`),
  });
}

/** Reads an Account Set. `detail` says where it broke (a path, never a value: values may be private). */
export function parseAccountSet(body: string): ParseResult<SimplefinAccountSet> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, detail: 'the answer is not JSON' };
  }
  try {
    const set = object(json, 'response');
    const accounts = array(field(set, 'accounts'), 'accounts').map((a, i) => readAccount(a, `accounts[${i}]`));
    const connectionsValue = field(set, 'connections');
    const connections =
      connectionsValue === undefined || connectionsValue === null
        ? []
        : array(connectionsValue, 'connections').map((c, i) => readConnection(c, `connections[${i}]`));
    const errlist = field(set, 'errlist');
    let errors: SimplefinBridgeError[];
    let version: 1 | 2;
    // A v2 answer may still carry the deprecated strings, repeating the errlist: the structured list wins.
    if (errlist !== undefined && errlist !== null) {
      errors = array(errlist, 'errlist').map((e, i) => readErrlistEntry(e, `errlist[${i}]`));
      version = 2;
    } else {
      const strings = field(set, 'errors');
      errors = strings === undefined || strings === null ? [] : array(strings, 'errors').map((e, i) => ({ message: text(e, `errors[${i}]`) }));
      version = 1;
    }
    return { ok: true, value: { accounts, connections, errors, version } };
  } catch (e) {
    if (e instanceof WireError) return { ok: false, detail: e.message };
    throw e;
  }
}

/** A transaction in its wire form again (how the connector keeps recent ones in its session). */
export function writeTransaction(t: SimplefinTransaction): { [key: string]: string | number | boolean } {
  const out: { [key: string]: string | number | boolean } = { id: t.id, posted: t.posted, amount: t.amount, description: t.description };
  if (t.transactedAt !== undefined) out.transacted_at = t.transactedAt;
  if (t.pending) out.pending = true;
  if (t.payee !== undefined) out.payee = t.payee;
  if (t.memo !== undefined) out.memo = t.memo;
  return out;
}

/** Reads a value written by writeTransaction; undefined when it is not one. */
export function tryReadTransaction(value: unknown): SimplefinTransaction | undefined {
  try {
    return readTransaction(value, 'transaction');
  } catch (e) {
    if (e instanceof WireError) return undefined;
    throw e;
  }
}
