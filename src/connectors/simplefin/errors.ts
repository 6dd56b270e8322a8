/**
 * What goes wrong talking to a SimpleFIN bridge, as the connector contract's failure codes. 103 means the
 * connection itself is unusable (the token was used, access was revoked), so Connect Fix asks for a new setup
 * token; 108 means the user must act at the bridge (sign in to a bank again, pay); 102 is temporary trouble.
 * The bridge's own messages are shown to the user, as the protocol asks, after sanitising: control and bidi
 * characters go, length is capped, and any secret is cut out.
 */
import { AggregationStatus, type AggregationFailureCode, type ConnectorFailure } from '../connector.js';
import type { SimplefinBridgeError } from './wire.js';

/** What the HTTP exchange with the bridge ended in, when it did not give an answer to use. */
export type SimplefinProblem =
  /** The address was refused by the URL policy; nothing was sent. */
  | { kind: 'url-refused'; reason: string }
  /** The claim was refused: the token was claimed already or is unknown. */
  | { kind: 'claim-refused'; status: number }
  /** `/accounts` answered 403: access was revoked, or the credentials are wrong. */
  | { kind: 'access-refused' }
  | { kind: 'payment-required' }
  | { kind: 'rate-limited' }
  | { kind: 'server-error'; status: number }
  | { kind: 'unexpected-status'; status: number }
  | { kind: 'timeout' }
  | { kind: 'too-large' }
  | { kind: 'unreachable' }
  /** The answer could not be read; `detail` names where (never a value). */
  | { kind: 'malformed'; detail: string };

/** Bridge messages are one-line notices; longer ones are cut. */
export const MAX_BRIDGE_MESSAGE_LENGTH = 300;

/** C0 and C1 controls, DEL, zero-width and bidirectional formatting characters: nothing a notice needs. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** Text from the bridge made safe to show: one line, no control or bidi characters, at most `max` characters. */
export function sanitizeBridgeText(text: string, max = MAX_BRIDGE_MESSAGE_LENGTH): string {
  const clean = text.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  return `${clean.slice(0, max - 1).trimEnd()}…`;
}

/** Replaces every occurrence of each secret (of 4 characters or more) in `text`. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  const longestFirst = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4).sort((a, b) => b.length - a.length);
  for (const secret of longestFirst) out = out.split(secret).join('[hidden]');
  return out;
}

function fail(code: AggregationFailureCode, message: string): ConnectorFailure {
  return { ok: false, code, message };
}

const AFTER_CLAIM = ' The setup token has been used: make a new one at your bridge when you try again.';

/** The fixed failures, by situation; `bridge` failures carry the bridge's sanitised message. */
export const SimplefinFailures = {
  missingToken: () => fail(AggregationStatus.InvalidCredentials, 'Paste the setup token your SimpleFIN bridge showed.'),
  invalidToken: (reason: string) => fail(AggregationStatus.InvalidCredentials, reason),
  claimRefused: () =>
    fail(
      AggregationStatus.InvalidCredentials,
      'This setup token was already used or is not valid: make a new one at your SimpleFIN bridge. If you did not use it yourself, disable it there, since someone else may have claimed it.',
    ),
  accessRevoked: () =>
    fail(
      AggregationStatus.InvalidCredentials,
      'Your SimpleFIN bridge no longer accepts this connection (access was revoked): make a new setup token at your bridge and connect again.',
    ),
  urlRefused: (reason: string) => fail(AggregationStatus.InvalidCredentials, `${reason} Make a setup token at a bridge this service may use.`),
  paymentRequired: () =>
    fail(
      AggregationStatus.UserActionRequired,
      'Your SimpleFIN bridge account needs payment before it serves data again: settle it at your bridge, then refresh.',
    ),
  rateLimited: () => fail(AggregationStatus.InstitutionDown, 'The SimpleFIN bridge is limiting requests for this connection. Try again later.'),
  serverError: (status: number) => fail(AggregationStatus.InstitutionDown, `The SimpleFIN bridge is not working right now (HTTP ${status}). Try again later.`),
  unexpectedStatus: (status: number) =>
    fail(AggregationStatus.InstitutionDown, `The SimpleFIN bridge gave an unexpected answer (HTTP ${status}). Try again later.`),
  timeout: () => fail(AggregationStatus.InstitutionDown, 'The SimpleFIN bridge did not answer in time. Try again later.'),
  tooLarge: () => fail(AggregationStatus.InstitutionDown, 'The SimpleFIN bridge sent more data than this service reads in one answer. Try again later.'),
  unreachable: () => fail(AggregationStatus.InstitutionDown, 'The SimpleFIN bridge could not be reached. Try again later.'),
  malformed: (detail: string) =>
    fail(
      AggregationStatus.InstitutionDown,
      `The SimpleFIN bridge sent an answer that could not be read (${sanitizeBridgeText(detail, 120)}). Try again later.`,
    ),
  bridgeAccessError: (message: string) =>
    fail(AggregationStatus.InvalidCredentials, `Your SimpleFIN bridge refused this connection: ${message} Make a new setup token at your bridge.`),
  bridgeUserAction: (message: string) => fail(AggregationStatus.UserActionRequired, `Your SimpleFIN bridge needs you to act: ${message}`),
  bridgeTrouble: (message: string) => fail(AggregationStatus.InstitutionDown, `The SimpleFIN bridge reported a problem: ${message} Try again later.`),
  /** `nextAt` is formatEpoch of the time the next request is allowed. */
  quotaUsedUp: (quota: number, nextAt: string) =>
    fail(
      AggregationStatus.InstitutionDown,
      `The SimpleFIN bridge allows ${quota} requests a day for this connection and they are used up; the next is allowed from ${nextAt}.`,
    ),
} as const;

/** Epoch seconds as "2026-11-25 10:00 UTC" (from the value given, never the system clock). */
export function formatEpoch(epoch: number): string {
  return `${new Date(epoch * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The failure of an exchange that gave no usable answer. After a successful claim the token is spent, so failures
 * of the first data request say so, and so does a claim answered 200 with something that is not an access URL.
 */
export function failureOf(problem: SimplefinProblem, phase: 'claim' | 'accounts' | 'first-accounts'): ConnectorFailure {
  const failure = baseFailure(problem, phase);
  const spent = (phase === 'first-accounts' && problem.kind !== 'access-refused') || (phase === 'claim' && problem.kind === 'malformed');
  return spent ? { ...failure, message: failure.message + AFTER_CLAIM } : failure;
}

function baseFailure(problem: SimplefinProblem, phase: 'claim' | 'accounts' | 'first-accounts'): ConnectorFailure {
  switch (problem.kind) {
    case 'url-refused':
      return SimplefinFailures.urlRefused(problem.reason);
    case 'claim-refused':
      return SimplefinFailures.claimRefused();
    case 'access-refused':
      return phase === 'first-accounts' ? SimplefinFailures.claimRefused() : SimplefinFailures.accessRevoked();
    case 'payment-required':
      return SimplefinFailures.paymentRequired();
    case 'rate-limited':
      return SimplefinFailures.rateLimited();
    case 'server-error':
      return SimplefinFailures.serverError(problem.status);
    case 'unexpected-status':
      return SimplefinFailures.unexpectedStatus(problem.status);
    case 'timeout':
      return SimplefinFailures.timeout();
    case 'too-large':
      return SimplefinFailures.tooLarge();
    case 'unreachable':
      return SimplefinFailures.unreachable();
    case 'malformed':
      return SimplefinFailures.malformed(problem.detail);
  }
}

/** Words of bridge messages that ask the user to do something at the bridge or the bank. */
const USER_ACTION =
  /\b(re-?authenticat\w*|authenticat\w* (is )?(required|failed|needed)|sign(ed)?[\s-]?in|log(ged)?[\s-]?in|credentials?|password|multi[\s-]?factor|two[\s-]?factor|2fa|mfa|verification|verify|re-?connect|re-?link|consent|action (is )?required|needs? (your )?attention)\b/i;

/**
 * The failure code a bridge error stands for. v2 codes are `prefix.subcode`; an unknown subcode is treated like its
 * bare prefix, as the protocol asks. `gen.auth` is the bridge refusing our own credentials, like a 403. v1 strings
 * (and codes whose meaning depends on the text) count as user action when they ask the user to sign in again.
 */
export function bridgeErrorCode(error: SimplefinBridgeError): 102 | 103 | 108 {
  const [prefix, subcode] = error.code === undefined ? [undefined, undefined] : splitCode(error.code);
  if (prefix === 'gen') return subcode === 'auth' ? 103 : 102;
  if (prefix === 'con' && subcode === 'auth') return 108;
  return USER_ACTION.test(error.message) ? 108 : 102;
}

function splitCode(code: string): [string, string] {
  const at = code.indexOf('.');
  return at < 0 ? [code.toLowerCase(), ''] : [code.slice(0, at).toLowerCase(), code.slice(at + 1).toLowerCase()];
}

/** A bridge error as the user sees it: the failure code it stands for and its sanitised text. */
export interface BridgeNotice {
  code: 102 | 103 | 108;
  message: string;
  /** The v2 error code, when the bridge gave one. */
  bridgeCode?: string;
  accountId?: string;
  connId?: string;
}

export function noticeOf(error: SimplefinBridgeError, secrets: readonly (string | undefined)[] = []): BridgeNotice {
  const notice: BridgeNotice = { code: bridgeErrorCode(error), message: redact(sanitizeBridgeText(error.message), secrets) || 'unspecified error' };
  if (error.code !== undefined) notice.bridgeCode = sanitizeBridgeText(error.code, 40);
  if (error.accountId !== undefined) notice.accountId = error.accountId;
  if (error.connId !== undefined) notice.connId = error.connId;
  return notice;
}

const SEVERITY: Record<102 | 103 | 108, number> = { 103: 3, 108: 2, 102: 1 };

/** The failure that bridge errors amount to when they come without the data asked for: the most severe one. */
export function failureOfNotices(notices: readonly BridgeNotice[]): ConnectorFailure | undefined {
  let worst: BridgeNotice | undefined;
  for (const n of notices) if (!worst || SEVERITY[n.code] > SEVERITY[worst.code]) worst = n;
  if (!worst) return undefined;
  const text = /[.!?…]$/.test(worst.message) ? worst.message : `${worst.message}.`;
  if (worst.code === 103) return SimplefinFailures.bridgeAccessError(text);
  if (worst.code === 108) return SimplefinFailures.bridgeUserAction(text);
  return SimplefinFailures.bridgeTrouble(text);
}

/** One row of the error mapping, for docs/connectors.md. */
export interface SimplefinErrorRow {
  situation: string;
  code: AggregationFailureCode;
  message: string;
}

const BRIDGE_TEXT = '<the bridge message>';

/** The whole mapping, built from the functions above so the documentation cannot drift from the behaviour. */
export const SIMPLEFIN_ERROR_TABLE: readonly SimplefinErrorRow[] = (
  [
    ['Setup token missing', SimplefinFailures.missingToken()],
    ['Setup token not base64 of an http(s) URL', SimplefinFailures.invalidToken('<why the token is not valid>')],
    ['Claim or access URL refused by the URL policy (nothing is sent)', SimplefinFailures.urlRefused('<which address and why>')],
    ['Claim answers 403 (already claimed or unknown; also other 4xx but 402 and 429)', failureOf({ kind: 'claim-refused', status: 403 }, 'claim')],
    ['`/accounts` answers 403 or 401 (access revoked)', failureOf({ kind: 'access-refused' }, 'accounts')],
    ['`/accounts` answers 403 or 401 right after the claim', failureOf({ kind: 'access-refused' }, 'first-accounts')],
    ['`/accounts` answers 402 (bridge account needs payment)', failureOf({ kind: 'payment-required' }, 'accounts')],
    ['`/accounts` or claim answers 429', failureOf({ kind: 'rate-limited' }, 'accounts')],
    ['HTTP 5xx', failureOf({ kind: 'server-error', status: 500 }, 'accounts')],
    ['Any other HTTP status (3xx redirects are not followed)', failureOf({ kind: 'unexpected-status', status: 404 }, 'accounts')],
    ['Timeout', failureOf({ kind: 'timeout' }, 'accounts')],
    ['Connection refused, DNS or TLS failure', failureOf({ kind: 'unreachable' }, 'accounts')],
    ['Answer larger than the transport reads', failureOf({ kind: 'too-large' }, 'accounts')],
    ['Answer not JSON, or not an Account Set of the defined types', failureOf({ kind: 'malformed', detail: '<where>' }, 'accounts')],
    [
      'Claim answers 200 with no usable access URL (not http(s), no credentials, broken percent-escapes in them, too long)',
      failureOf({ kind: 'malformed', detail: 'the claim answer is not an access URL' }, 'claim'),
    ],
    [
      'Any other failure of the first `/accounts` request right after the claim (shown for HTTP 5xx)',
      failureOf({ kind: 'server-error', status: 500 }, 'first-accounts'),
    ],
    ['v2 `gen.auth` without the data asked for', SimplefinFailures.bridgeAccessError(BRIDGE_TEXT)],
    [
      'v2 `con.auth`, or another error whose text asks the user to sign in / reauthenticate (v1 strings too), without the data',
      SimplefinFailures.bridgeUserAction(BRIDGE_TEXT),
    ],
    ['v2 `gen.*`, `act.*`, other `con.*`, unknown codes, other v1 strings, without the data', SimplefinFailures.bridgeTrouble(BRIDGE_TEXT)],
    ['Daily request quota used up (the bridge is not contacted)', SimplefinFailures.quotaUsedUp(24, '<time>')],
  ] as const
).map(([situation, failure]) => ({ situation, code: failure.code, message: failure.message }));
