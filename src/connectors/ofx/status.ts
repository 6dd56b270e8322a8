/**
 * OFX status codes and transport failures as the connector contract's aggregation failures. The tables are data so
 * the documentation can be generated from them (ofxStatusTableMarkdown) and checked against them.
 *
 * Choosing a code matters beyond the message: the engine stops refreshing a login that ended in 103, 108, 109 or
 * 185 until the user signs in again (retrying known-bad credentials can lock the user out at the institution), and
 * retries 102 on the next refresh. So only what the user must fix maps to a user code; what retrying may cure, or
 * what no one but the operator can fix, is 102.
 */
import { AggregationStatus, type AggregationFailureCode, type ConnectorFailure } from '../connector.js';
import type { OfxStatus } from './parse.js';

export interface OfxStatusRow {
  /** The OFX status code, or the first of a range. */
  code: number;
  /** The last code of a range. */
  to?: number;
  /** What the OFX specification says the code means. */
  ofxMeaning: string;
  /** The aggregation status it ends in; 0 is success (the rest of the answer is used). */
  aggregation: 0 | AggregationFailureCode;
  /** What the user is told; empty for success. */
  message: string;
}

const { Success, InstitutionDown, InvalidCredentials, UserActionRequired, PasswordChangeRequired, MfaRequired } = AggregationStatus;

const TRY_LATER = 'The institution could not answer the request. Try again later.';
const NOT_SUPPORTED = 'The institution does not accept the connection settings it was reached with; they need to be corrected before this works.';
const APPROVE_DEVICE =
  "The institution has not approved this connection yet. Sign in to the institution's website and approve the new device or " +
  'application (look for a secure message, e-mail or text with a code), then sign in here again.';

export const OFX_STATUS_TABLE: readonly OfxStatusRow[] = [
  { code: 0, ofxMeaning: 'Success', aggregation: Success, message: '' },
  { code: 1, ofxMeaning: 'Client is up-to-date (INFO)', aggregation: Success, message: '' },
  { code: 2000, ofxMeaning: 'General error', aggregation: InstitutionDown, message: TRY_LATER },
  { code: 2001, ofxMeaning: 'Invalid account', aggregation: InstitutionDown, message: 'The institution did not accept the account number it was asked about.' },
  {
    code: 2002,
    ofxMeaning: 'General account error',
    aggregation: InstitutionDown,
    message: 'The institution reported a problem with the account. Try again later.',
  },
  {
    code: 2003,
    ofxMeaning: 'Account not found',
    aggregation: InstitutionDown,
    message: 'The institution no longer finds this account under this sign-in; it may have been closed or moved.',
  },
  { code: 2004, ofxMeaning: 'Account closed', aggregation: InstitutionDown, message: 'The institution reports that this account is closed.' },
  {
    code: 2005,
    ofxMeaning: 'Account not authorized',
    aggregation: UserActionRequired,
    message: "The institution does not allow this account to be downloaded. Enable it for Quicken or Direct Connect access on the institution's website.",
  },
  { code: 2019, ofxMeaning: 'Duplicate request (TRNUID already used)', aggregation: InstitutionDown, message: TRY_LATER },
  { code: 2020, ofxMeaning: 'Invalid date', aggregation: InstitutionDown, message: TRY_LATER },
  { code: 2021, ofxMeaning: 'Unsupported version', aggregation: InstitutionDown, message: NOT_SUPPORTED },
  { code: 2025, ofxMeaning: 'Branch ID missing', aggregation: InstitutionDown, message: NOT_SUPPORTED },
  { code: 2027, ofxMeaning: 'Invalid date range', aggregation: InstitutionDown, message: TRY_LATER },
  { code: 2028, ofxMeaning: 'Requested element unknown (WARN: the rest was executed)', aggregation: Success, message: '' },
  {
    code: 3000,
    ofxMeaning: 'MFA challenge authentication required',
    aggregation: MfaRequired,
    message: 'The institution asks for an additional security check that cannot be answered through this connection.',
  },
  {
    code: 3001,
    ofxMeaning: 'MFA challenge information is invalid',
    aggregation: MfaRequired,
    message: 'The institution did not accept the additional security check. Sign in again.',
  },
  {
    code: 10000,
    to: 10519,
    ofxMeaning: 'Stop-payment, transfer and payee errors (not requested by this connector)',
    aggregation: InstitutionDown,
    message: TRY_LATER,
  },
  { code: 12250, ofxMeaning: 'Investment transaction download not supported (WARN)', aggregation: Success, message: '' },
  { code: 12251, ofxMeaning: 'Investment position download not supported (WARN)', aggregation: Success, message: '' },
  { code: 12252, ofxMeaning: 'Investment positions for specified date not available', aggregation: Success, message: '' },
  { code: 12253, ofxMeaning: 'Investment open order download not supported (WARN)', aggregation: Success, message: '' },
  { code: 12254, ofxMeaning: 'Investment balances download not supported (WARN)', aggregation: Success, message: '' },
  { code: 12500, ofxMeaning: 'One or more securities not found', aggregation: Success, message: '' },
  { code: 13504, ofxMeaning: '<FI> missing or invalid in <SONRQ>', aggregation: InstitutionDown, message: NOT_SUPPORTED },
  {
    code: 15000,
    ofxMeaning: 'Must change USERPASS',
    aggregation: PasswordChangeRequired,
    message: "The institution requires a new password. Change it on the institution's website, then sign in here with the new one.",
  },
  { code: 15500, ofxMeaning: 'Signon invalid (wrong user ID or password)', aggregation: InvalidCredentials, message: 'The user ID or password is incorrect.' },
  {
    code: 15501,
    ofxMeaning: 'Customer account already in use (one connection at a time)',
    aggregation: InstitutionDown,
    message: 'The institution allows one connection at a time and another one is open. Try again later.',
  },
  {
    code: 15502,
    ofxMeaning: 'USERPASS lockout (too many failed sign-on attempts)',
    aggregation: PasswordChangeRequired,
    message:
      "The institution has locked the password after too many failed sign-ins. Reset it on the institution's website, then sign in here with the new one.",
  },
  {
    code: 15503,
    ofxMeaning: 'Could not change USERPASS',
    aggregation: PasswordChangeRequired,
    message:
      "The institution requires a password change that it cannot take through this connection. Change it on the institution's website, then sign in here with the new one.",
  },
  { code: 15504, ofxMeaning: 'Could not provide random data', aggregation: InstitutionDown, message: TRY_LATER },
  { code: 15505, ofxMeaning: 'Country system not supported', aggregation: InstitutionDown, message: NOT_SUPPORTED },
  { code: 15506, ofxMeaning: 'Empty signon not supported', aggregation: InstitutionDown, message: NOT_SUPPORTED },
  {
    code: 15507,
    ofxMeaning: 'Signon invalid without supporting pin change request',
    aggregation: PasswordChangeRequired,
    message: "The institution requires a new password. Change it on the institution's website, then sign in here with the new one.",
  },
  {
    code: 15508,
    ofxMeaning: 'Transaction not authorized',
    aggregation: UserActionRequired,
    message:
      "The institution has not enabled downloads for this user. Enable Quicken or Direct Connect access on the institution's website, or ask the institution to.",
  },
  { code: 15509, ofxMeaning: 'Not assigned by the specification (an institution-specific sign-on refusal)', aggregation: InstitutionDown, message: TRY_LATER },
  {
    code: 15510,
    ofxMeaning: 'CLIENTUID error: the user must authorize this client at the institution',
    aggregation: UserActionRequired,
    message: APPROVE_DEVICE,
  },
  {
    code: 15511,
    ofxMeaning: 'MFA error: further authentication required',
    aggregation: MfaRequired,
    message: 'The institution asks for an additional security check that cannot be answered through this connection.',
  },
  {
    code: 15512,
    ofxMeaning: 'AUTHTOKEN required',
    aggregation: UserActionRequired,
    message: 'The institution requires a one-time access token for this connection. Contact the institution to set up Direct Connect access.',
  },
  {
    code: 15513,
    ofxMeaning: 'AUTHTOKEN invalid',
    aggregation: UserActionRequired,
    message: 'The institution did not accept the access token for this connection. Contact the institution to set up Direct Connect access.',
  },
];

/** Failures that are not OFX status codes. Every one is 102: the institution (or the way to it) is not answering. */
export interface OfxTransportRow {
  cause: 'http-status' | 'network' | 'timeout' | 'too-large' | 'refused-url' | 'unparseable';
  meaning: string;
  aggregation: AggregationFailureCode;
  message: string;
}

export const OFX_TRANSPORT_TABLE: readonly OfxTransportRow[] = [
  {
    cause: 'http-status',
    meaning: 'The server answered with an HTTP status outside 2xx (and no OFX sign-on error in the body)',
    aggregation: InstitutionDown,
    message: TRY_LATER,
  },
  {
    cause: 'network',
    meaning: 'The connection failed (refused, reset, DNS, TLS)',
    aggregation: InstitutionDown,
    message: 'The institution is not responding. Try again later.',
  },
  {
    cause: 'timeout',
    meaning: 'The server did not answer in time',
    aggregation: InstitutionDown,
    message: 'The institution is not responding. Try again later.',
  },
  { cause: 'too-large', meaning: 'The answer was larger than the configured limit', aggregation: InstitutionDown, message: TRY_LATER },
  {
    cause: 'refused-url',
    meaning: "The institution's address is not allowed by the service's outbound policy",
    aggregation: InstitutionDown,
    message: 'The institution cannot be reached from this service.',
  },
  {
    cause: 'unparseable',
    meaning: 'The body is not an OFX document (HTML error page, truncated, over the parser limits)',
    aggregation: InstitutionDown,
    message: TRY_LATER,
  },
];

/** The table row of a code, if the table names it. */
export function ofxStatusRow(code: number): OfxStatusRow | undefined {
  return OFX_STATUS_TABLE.find((row) => (row.to === undefined ? row.code === code : code >= row.code && code <= row.to));
}

/** Text from outside made safe to show: no control characters, white space collapsed, bounded length. */
function clean(text: string): string {
  const flat = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

/** A server's own words, quoted. */
function serverWords(message: string | undefined): string {
  const words = message ? clean(message) : '';
  return words ? ` The institution says: "${words}"` : '';
}

/**
 * The failure an OFX status ends in, or undefined for success. Codes the table does not name are success when the
 * server marks them INFO or WARN, and 102 when it marks them ERROR.
 */
export function ofxStatusFailure(status: OfxStatus): ConnectorFailure | undefined {
  const row = ofxStatusRow(status.code);
  if (row ? row.aggregation === Success : status.severity !== 'ERROR') return undefined;
  const code = row ? (row.aggregation as AggregationFailureCode) : InstitutionDown;
  const base = row ? row.message : 'The institution refused the request.';
  return { ok: false, code, message: `${base}${serverWords(status.message)} (OFX status ${status.code})` };
}

/** The failure of a request that got no OFX answer; `detail` says what happened (an HTTP status, an error text). */
export function ofxTransportFailure(cause: OfxTransportRow['cause'], detail?: string): ConnectorFailure {
  const row = OFX_TRANSPORT_TABLE.find((r) => r.cause === cause)!;
  const words = detail ? clean(detail) : '';
  const why = words ? ` (${words})` : '';
  return { ok: false, code: row.aggregation, message: `${row.message}${why}` };
}

/** Both tables as Markdown, for docs/connectors.md. */
export function ofxStatusTableMarkdown(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const lines = ['| OFX status | OFX meaning | aggregation status | message to the user |', '|---|---|---|---|'];
  for (const row of OFX_STATUS_TABLE) {
    const code = row.to === undefined ? String(row.code) : `${row.code}–${row.to}`;
    lines.push(`| ${code} | ${cell(row.ofxMeaning)} | ${row.aggregation === Success ? '0 (success)' : row.aggregation} | ${cell(row.message || '–')} |`);
  }
  lines.push('| any other, severity INFO or WARN | not named above | 0 (success) | – |');
  lines.push('| any other, severity ERROR | not named above | 102 | The institution refused the request. |');
  for (const row of OFX_TRANSPORT_TABLE) lines.push(`| (${row.cause}) | ${cell(row.meaning)} | ${row.aggregation} | ${cell(row.message)} |`);
  return `${lines.join('\n')}\n`;
}
