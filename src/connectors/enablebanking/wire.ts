/**
 * The Enable Banking API's answers, read into the few fields the connector uses. Money is read strictly: an answer
 * whose amounts are not decimal numbers is refused as a whole, since a misread amount is worse than a visible
 * failure. Everything else is read leniently: a list entry that is not what the API describes (a bank without a name,
 * a balance without an amount) is left out, text that is not text is taken as absent, and fields the connector does
 * not use are not read at all (a transaction's `transaction_id`, which may change between reads, and the exchange
 * rate's `instructed_amount`, which is not the amount booked on the account, among them).
 *
 * A refusal says where the answer broke (a path), never a value: answers hold people's bank data.
 */

export type ParseResult<T> = { ok: true; value: T } | { ok: false; detail: string };

export type PsuType = 'personal' | 'business';

/** One entry of `GET /aspsps`. */
export interface AspspEntry {
  name: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  logo?: string;
  psuTypes: PsuType[];
  /** Seconds. */
  maximumConsentValidity: number;
  requiredPsuHeaders: string[];
  beta: boolean;
  bic?: string;
  /** Days of transactions the bank serves, where the answer says. */
  transactionTotalDays?: number;
}

/** `GET /application`. */
export interface ApplicationInfo {
  redirectUrls: string[];
  active?: boolean;
  environment?: string;
}

/** An account resource (`POST /sessions`). */
export interface AccountResource {
  /** For reading balances and transactions; valid for this session only, absent when the account cannot be read. */
  uid?: string;
  /** Stable across sessions: how a new consent's accounts are matched to the old ones. */
  identificationHash?: string;
  iban?: string;
  other?: { identification: string; schemeName?: string };
  /** The holder's name. */
  name?: string;
  /** The account's description, by the customer or the bank. */
  details?: string;
  product?: string;
  cashAccountType?: string;
  currency?: string;
  /** PRIV or ORGA. */
  usage?: string;
}

/** `POST /sessions`. */
export interface SessionCreated {
  sessionId: string;
  accounts: AccountResource[];
  /** Epoch seconds. */
  validUntil?: number;
  psuType?: PsuType;
}

/** `GET /sessions/{id}`. */
export interface SessionState {
  status: string;
  /** Epoch seconds. */
  validUntil?: number;
}

export interface BalanceEntry {
  type: string;
  /** A decimal string, signed as the bank gives it. */
  amount: string;
  currency?: string;
  /** Where the bank marks the balance as a credit or a debit (then the amount's own sign is not what counts). */
  indicator?: 'CRDT' | 'DBIT';
  /** Epoch seconds (last_change_date_time, else the reference date at noon UTC). */
  at?: number;
}

export interface TransactionEntry {
  entryReference?: string;
  /** A decimal string. */
  amount: string;
  currency?: string;
  indicator?: 'CRDT' | 'DBIT';
  status?: string;
  /** YYYY-MM-DD. */
  bookingDate?: string;
  valueDate?: string;
  transactionDate?: string;
  creditorName?: string;
  debtorName?: string;
  /** The counterparty's account number (IBAN or other), for telling apart otherwise equal transactions. */
  creditorAccount?: string;
  debtorAccount?: string;
  remittance: string[];
  /** The bank's own description of the kind of transaction. */
  bankCode?: string;
  merchantCategoryCode?: string;
}

export interface TransactionPage {
  transactions: TransactionEntry[];
  /** Absent, null or empty: the last page. */
  continuationKey?: string;
}

/** The error body every failed request carries (`code`, `message`, `error`, `detail`): its text code is what counts. */
export interface ApiErrorBody {
  /** The text code, e.g. EXPIRED_SESSION. */
  error?: string;
}

/** Texts longer than this are cut: names and descriptions are short. */
const MAX_TEXT = 2000;
const MAX_ID = 1024;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
const ERROR_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

class WireError extends Error {}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function get(object: Json, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function parseJson(body: string): ParseResult<unknown> {
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false, detail: 'the answer is not JSON' };
  }
}

/** Runs a reader over a JSON body: its result, or where it broke. */
function readBody<T>(body: string, read: (json: unknown) => T): ParseResult<T> {
  const json = parseJson(body);
  if (!json.ok) return json;
  try {
    return { ok: true, value: read(json.value) };
  } catch (e) {
    if (e instanceof WireError) return { ok: false, detail: e.message };
    throw e;
  }
}

function objectAt(value: unknown, path: string): Json {
  if (!isRecord(value)) throw new WireError(`${path} is not an object`);
  return value;
}

function listAt(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new WireError(`${path} is not a list`);
  return value;
}

/** Text, or undefined when absent, empty or not text. */
function text(value: unknown, max = MAX_TEXT): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  return trimmed.length > max ? trimmed.slice(0, max) : trimmed;
}

/** An identifier: non-empty text that is not too long to be one. */
function identifier(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID ? value : undefined;
}

function decimalAt(value: unknown, path: string): string {
  if (typeof value !== 'string' || !DECIMAL.test(value.trim())) throw new WireError(`${path} is not a decimal number`);
  return value.trim();
}

/** A calendar day as YYYY-MM-DD, or undefined when the value is not one. */
export function calendarDay(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = DAY_TEXT.exec(value.trim());
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? match[0] : undefined;
}

/** Epoch seconds at noon UTC of a day given as YYYY-MM-DD: the same day in every time zone of Europe. */
export function dayEpoch(day: string): number {
  return Date.parse(`${day}T12:00:00Z`) / 1000;
}

/** Epoch seconds of an ISO 8601 date and time (with an offset, or UTC), or undefined. */
export function instant(value: unknown): number | undefined {
  if (typeof value !== 'string' || value.length > 64 || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return undefined;
  const ms = Date.parse(/([zZ]|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

function indicator(value: unknown): 'CRDT' | 'DBIT' | undefined {
  return value === 'CRDT' || value === 'DBIT' ? value : undefined;
}

function psuType(value: unknown): PsuType | undefined {
  return value === 'personal' || value === 'business' ? value : undefined;
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** Copies only the defined fields, so that values stay plain JSON (no `undefined` members). */
function defined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

/** A URL of at most `max` characters (a longer one is refused, never cut), or undefined. */
function urlText(value: unknown, max: number): string | undefined {
  const candidate = typeof value === 'string' ? value.trim() : '';
  return candidate.length > 0 && candidate.length <= max && URL.canParse(candidate) ? candidate : undefined;
}

/** An https URL, or undefined (logos are shown in browsers: nothing else is kept). */
function httpsUrl(value: unknown): string | undefined {
  const candidate = urlText(value, 2048);
  if (!candidate) return undefined;
  const url = new URL(candidate);
  return url.protocol === 'https:' && !url.username && !url.password ? url.href : undefined;
}

function readAspsp(value: unknown): AspspEntry | undefined {
  if (!isRecord(value)) return undefined;
  const name = text(get(value, 'name'), 255);
  const country = text(get(value, 'country'), 8)?.toUpperCase();
  const validity = positiveInteger(get(value, 'maximum_consent_validity'));
  if (!name || !country || !/^[A-Z]{2}$/.test(country) || validity === undefined) return undefined;
  const types = get(value, 'psu_types');
  const headers = get(value, 'required_psu_headers');
  return defined({
    name,
    country,
    logo: httpsUrl(get(value, 'logo')),
    psuTypes: Array.isArray(types) ? [...new Set(types.map(psuType).filter((t): t is PsuType => t !== undefined))] : [],
    maximumConsentValidity: validity,
    requiredPsuHeaders: Array.isArray(headers) ? headers.map((h) => text(h, 64)).filter((h): h is string => h !== undefined) : [],
    beta: get(value, 'beta') === true,
    bic: text(get(value, 'bic'), 11),
    transactionTotalDays: positiveInteger(get(value, 'transaction_total_days')),
  });
}

/** `GET /aspsps`: the banks (entries that cannot be read left out). */
export function parseAspsps(body: string): ParseResult<AspspEntry[]> {
  return readBody(body, (json) => listAt(get(objectAt(json, 'answer'), 'aspsps'), 'aspsps').flatMap((a) => readAspsp(a) ?? []));
}

/** `GET /application`. */
export function parseApplication(body: string): ParseResult<ApplicationInfo> {
  return readBody(body, (json) => {
    const app = objectAt(json, 'answer');
    const urls = listAt(get(app, 'redirect_urls'), 'redirect_urls');
    const active = get(app, 'active');
    return defined({
      redirectUrls: urls.filter((u): u is string => typeof u === 'string'),
      active: typeof active === 'boolean' ? active : undefined,
      environment: text(get(app, 'environment'), 32),
    });
  });
}

/** `POST /auth`: where to send the customer. */
export function parseAuthStart(body: string): ParseResult<{ url: string }> {
  return readBody(body, (json) => {
    const url = urlText(get(objectAt(json, 'answer'), 'url'), 8192);
    if (!url) throw new WireError('url is not a URL');
    return { url };
  });
}

function accountNumber(value: unknown): Pick<AccountResource, 'iban' | 'other'> {
  if (!isRecord(value)) return {};
  const iban = text(get(value, 'iban'), 64);
  const other = get(value, 'other');
  const identification = isRecord(other) ? text(get(other, 'identification'), 128) : undefined;
  return defined({
    iban,
    other: identification && isRecord(other) ? defined({ identification, schemeName: text(get(other, 'scheme_name'), 32) }) : undefined,
  });
}

function readAccount(value: unknown): AccountResource | undefined {
  if (!isRecord(value)) return undefined;
  const account: AccountResource = defined({
    uid: identifier(get(value, 'uid')),
    identificationHash: identifier(get(value, 'identification_hash')),
    ...accountNumber(get(value, 'account_id')),
    name: text(get(value, 'name'), 255),
    details: text(get(value, 'details'), 255),
    product: text(get(value, 'product'), 255),
    cashAccountType: text(get(value, 'cash_account_type'), 8),
    currency: text(get(value, 'currency'), 8),
    usage: text(get(value, 'usage'), 8),
  });
  // Without a hash or a number the account cannot be told apart from the next session's accounts.
  return account.identificationHash || account.iban || account.other ? account : undefined;
}

function validUntilOf(session: Json): number | undefined {
  const access = get(session, 'access');
  return isRecord(access) ? instant(get(access, 'valid_until')) : undefined;
}

/** `POST /sessions`: the new session and the accounts the customer shared (unreadable entries left out). */
export function parseSessionCreated(body: string): ParseResult<SessionCreated> {
  return readBody(body, (json) => {
    const session = objectAt(json, 'answer');
    const sessionId = identifier(get(session, 'session_id'));
    if (!sessionId) throw new WireError('session_id is not an identifier');
    const accounts = get(session, 'accounts');
    return defined({
      sessionId,
      accounts: accounts === undefined || accounts === null ? [] : listAt(accounts, 'accounts').flatMap((a) => readAccount(a) ?? []),
      validUntil: validUntilOf(session),
      psuType: psuType(get(session, 'psu_type')),
    });
  });
}

/** `GET /sessions/{id}`. */
export function parseSessionState(body: string): ParseResult<SessionState> {
  return readBody(body, (json) => {
    const session = objectAt(json, 'answer');
    const status = text(get(session, 'status'), 64);
    if (!status) throw new WireError('status is not text');
    return defined({ status, validUntil: validUntilOf(session) });
  });
}

function readBalance(value: unknown, index: number): BalanceEntry | undefined {
  if (!isRecord(value)) return undefined;
  const type = text(get(value, 'balance_type'), 8);
  const amount = get(value, 'balance_amount');
  if (!type || !isRecord(amount) || get(amount, 'amount') === undefined) return undefined;
  const day = calendarDay(get(value, 'reference_date'));
  return defined({
    type,
    amount: decimalAt(get(amount, 'amount'), `balances[${index}].balance_amount.amount`),
    currency: text(get(amount, 'currency'), 8),
    indicator: indicator(get(value, 'credit_debit_indicator')),
    at: instant(get(value, 'last_change_date_time')) ?? (day ? dayEpoch(day) : undefined),
  });
}

/** `GET /accounts/{uid}/balances`. */
export function parseBalances(body: string): ParseResult<BalanceEntry[]> {
  return readBody(body, (json) => listAt(get(objectAt(json, 'answer'), 'balances'), 'balances').flatMap((b, i) => readBalance(b, i) ?? []));
}

function partyName(value: unknown): string | undefined {
  return isRecord(value) ? text(get(value, 'name'), 255) : undefined;
}

function partyAccount(value: unknown): string | undefined {
  const number = accountNumber(value);
  return number.iban ?? number.other?.identification;
}

function readTransaction(value: unknown, path: string): TransactionEntry {
  const t = objectAt(value, path);
  const amount = objectAt(get(t, 'transaction_amount'), `${path}.transaction_amount`);
  const remittance = get(t, 'remittance_information');
  const code = get(t, 'bank_transaction_code');
  return defined({
    entryReference: identifier(get(t, 'entry_reference')),
    amount: decimalAt(get(amount, 'amount'), `${path}.transaction_amount.amount`),
    currency: text(get(amount, 'currency'), 8),
    indicator: indicator(get(t, 'credit_debit_indicator')),
    status: text(get(t, 'status'), 8),
    bookingDate: calendarDay(get(t, 'booking_date')),
    valueDate: calendarDay(get(t, 'value_date')),
    transactionDate: calendarDay(get(t, 'transaction_date')),
    creditorName: partyName(get(t, 'creditor')),
    debtorName: partyName(get(t, 'debtor')),
    creditorAccount: partyAccount(get(t, 'creditor_account')),
    debtorAccount: partyAccount(get(t, 'debtor_account')),
    remittance: Array.isArray(remittance) ? remittance.map((r) => text(r)).filter((r): r is string => r !== undefined) : [],
    bankCode: isRecord(code) ? text(get(code, 'description'), 255) : undefined,
    merchantCategoryCode: text(get(t, 'merchant_category_code'), 8),
  });
}

/** One page of `GET /accounts/{uid}/transactions`. */
export function parseTransactionPage(body: string): ParseResult<TransactionPage> {
  return readBody(body, (json) => {
    const page = objectAt(json, 'answer');
    const list = get(page, 'transactions');
    return defined({
      transactions: list === undefined || list === null ? [] : listAt(list, 'transactions').map((t, i) => readTransaction(t, `transactions[${i}]`)),
      continuationKey: identifier(get(page, 'continuation_key')),
    });
  });
}

/**
 * The error body of a failed request, as far as it can be read (never throws). Its message and detail are not kept:
 * the failures the connector reports are its own words (errors.ts), and the detail may quote the request.
 */
export function parseErrorBody(body: string): ApiErrorBody {
  const json = parseJson(body);
  if (!json.ok || !isRecord(json.value)) return {};
  const error = get(json.value, 'error');
  return typeof error === 'string' && ERROR_CODE.test(error) ? { error } : {};
}
