/**
 * What goes wrong talking to Enable Banking, as the connector contract's failure codes, in one table. An ended consent
 * is one of the OAuth codes (945 expired, 946 closed, 947 revoked): the user gives it again through Connect Fix, and
 * the new session's accounts are matched to the old ones. 103 is a sign-in the bank did not complete, 108 something
 * the user must do at the bank; everything else (the bank's limits, its errors, Enable Banking's, the network,
 * answers that cannot be read, codes this table does not know) is 102, temporary. The messages are the connector's
 * own words: Enable Banking's message and detail may quote the request, so they are not shown.
 */
import { AggregationStatus, type AggregationFailureCode, type ConnectorFailure } from '../connector.js';
import { MAX_TRANSACTION_PAGES, UNATTENDED_READS_PER_DAY } from './limits.js';

/** What an exchange with the API ended in, when it did not give an answer to use. */
export type EnableBankingProblem =
  /** The API answered with an error status; `error` is the body's text code (EXPIRED_SESSION), when it had one. */
  | { kind: 'api'; status: number; error?: string }
  /** The address is one the outbound target policy refuses; nothing was sent. */
  | { kind: 'refused' }
  | { kind: 'timeout' }
  | { kind: 'too-large' }
  | { kind: 'unreachable' }
  /** A success answer that could not be read; `detail` names where (never a value). */
  | { kind: 'malformed'; detail: string }
  /** A transaction list that did not end within the pages the connector reads. */
  | { kind: 'too-many-pages'; pages: number };

/** The request a problem came from: starting a sign-in, completing it (POST /sessions), or reading data. */
export type RequestPhase = 'start' | 'authorize' | 'read';

function fail(code: AggregationFailureCode, message: string): ConnectorFailure {
  return { ok: false, code, message };
}

const AGAIN = 'Try again later.';

/** The failures, by situation. */
export const EnableBankingFailures = {
  consentExpired: () => fail(945, 'Your consent at the bank has expired: connect the bank again to renew it.'),
  consentClosed: () => fail(946, 'The connection to your bank was closed: connect the bank again.'),
  consentRevoked: () => fail(947, 'The consent was withdrawn at your bank: connect the bank again to give it anew.'),
  authorizationRefused: () =>
    fail(AggregationStatus.InvalidCredentials, 'The bank sign-in could not be completed (it was refused or took too long): connect the bank again.'),
  noAccountsShared: () => fail(AggregationStatus.UserActionRequired, 'The bank shared no account: connect the bank again and choose the accounts to share.'),
  actionAtBank: () => fail(AggregationStatus.UserActionRequired, 'Your bank needs you to act in its online banking before it shares your data again.'),
  accountNotShared: () =>
    fail(AggregationStatus.UserActionRequired, 'The bank no longer shares an account of this connection: connect the bank again and choose its accounts.'),
  rateLimited: () => fail(AggregationStatus.InstitutionDown, `The bank limits how often it may be read (a few times a day without you). ${AGAIN}`),
  /** `nextAt`: when the next read is allowed, as formatEpoch gives it. */
  dailyReadsUsed: (perDay: number, nextAt: string) =>
    fail(
      AggregationStatus.InstitutionDown,
      `The bank allows ${perDay} reads a day while you are not there, and today's are used; the next is allowed from ${nextAt}.`,
    ),
  bankTrouble: () => fail(AggregationStatus.InstitutionDown, `Your bank did not answer properly. ${AGAIN}`),
  /** Enable Banking refused the service's own request: its application, key, address or headers. */
  serviceRefused: (error: string) =>
    fail(
      AggregationStatus.InstitutionDown,
      `Enable Banking refused this service's request (${error}): its operator must check the Enable Banking application. ${AGAIN}`,
    ),
  serverError: (status: number) => fail(AggregationStatus.InstitutionDown, `Enable Banking is not working right now (HTTP ${status}). ${AGAIN}`),
  unexpected: (status: number, error?: string) =>
    fail(AggregationStatus.InstitutionDown, `Enable Banking gave an unexpected answer (HTTP ${status}${error ? ` ${error}` : ''}). ${AGAIN}`),
  unexpectedSessionStatus: (status: string) =>
    fail(AggregationStatus.InstitutionDown, `The connection to your bank is in an unexpected state (${status}). ${AGAIN}`),
  refused: () => fail(AggregationStatus.InstitutionDown, `Enable Banking's address is one this service may not contact. ${AGAIN}`),
  timeout: () => fail(AggregationStatus.InstitutionDown, `Enable Banking did not answer in time. ${AGAIN}`),
  tooLarge: () => fail(AggregationStatus.InstitutionDown, `Enable Banking sent more data than this service reads in one answer. ${AGAIN}`),
  unreachable: () => fail(AggregationStatus.InstitutionDown, `Enable Banking could not be reached. ${AGAIN}`),
  malformed: (detail: string) => fail(AggregationStatus.InstitutionDown, `Enable Banking sent an answer that could not be read (${detail}). ${AGAIN}`),
  tooManyPages: (pages: number) =>
    fail(AggregationStatus.InstitutionDown, `The bank's transactions did not end within ${pages} pages, as many as this service reads at once. ${AGAIN}`),
} as const;

type Failures = typeof EnableBankingFailures;

/**
 * The API's error codes the connector tells apart (the published list), and what each becomes. Codes of requests the
 * connector does not make (payments) are not here: they are unknown, so 102.
 */
const BY_ERROR: Readonly<Record<string, (error: string) => ConnectorFailure>> = {
  EXPIRED_SESSION: () => EnableBankingFailures.consentExpired(),
  CLOSED_SESSION: () => EnableBankingFailures.consentClosed(),
  // A session Enable Banking no longer knows is as good as closed.
  SESSION_DOES_NOT_EXIST: () => EnableBankingFailures.consentClosed(),
  REVOKED_SESSION: () => EnableBankingFailures.consentRevoked(),
  ASPSP_RATE_LIMIT_EXCEEDED: () => EnableBankingFailures.rateLimited(),
  ASPSP_ERROR: () => EnableBankingFailures.bankTrouble(),
  ASPSP_TIMEOUT: () => EnableBankingFailures.bankTrouble(),
  ASPSP_PSU_ACTION_REQUIRED: () => EnableBankingFailures.actionAtBank(),
  ASPSP_ACCOUNT_NOT_ACCESSIBLE: () => EnableBankingFailures.accountNotShared(),
  ACCOUNT_DOES_NOT_EXIST: () => EnableBankingFailures.accountNotShared(),
  WRONG_AUTHORIZATION_CODE: () => EnableBankingFailures.authorizationRefused(),
  EXPIRED_AUTHORIZATION_CODE: () => EnableBankingFailures.authorizationRefused(),
  ALREADY_AUTHORIZED: () => EnableBankingFailures.authorizationRefused(),
  UNAUTHORIZED_ACCESS: (e) => EnableBankingFailures.serviceRefused(e),
  AUTHORIZATION_NOT_PROVIDED: (e) => EnableBankingFailures.serviceRefused(e),
  ACCESS_DENIED: (e) => EnableBankingFailures.serviceRefused(e),
  UNAUTHORIZED_IP: (e) => EnableBankingFailures.serviceRefused(e),
  REDIRECT_URI_NOT_ALLOWED: (e) => EnableBankingFailures.serviceRefused(e),
  PSU_HEADER_NOT_PROVIDED: (e) => EnableBankingFailures.serviceRefused(e),
};

/** The failure of an error answer: its code first, then its HTTP status. */
function apiFailure(status: number, error: string | undefined, phase: RequestPhase): ConnectorFailure {
  if (error !== undefined && Object.hasOwn(BY_ERROR, error)) return BY_ERROR[error]!(error);
  if (status === 429) return EnableBankingFailures.rateLimited();
  if (status >= 500) return EnableBankingFailures.serverError(status);
  // Any other refusal of the code the bank sent back means the sign-in did not complete: the user starts it again.
  if (phase === 'authorize' && status >= 400 && status < 500) return EnableBankingFailures.authorizationRefused();
  return EnableBankingFailures.unexpected(status, error);
}

/** The failure of an exchange that gave no usable answer. */
export function failureOf(problem: EnableBankingProblem, phase: RequestPhase): ConnectorFailure {
  switch (problem.kind) {
    case 'api':
      return apiFailure(problem.status, problem.error, phase);
    case 'refused':
      return EnableBankingFailures.refused();
    case 'timeout':
      return EnableBankingFailures.timeout();
    case 'too-large':
      return EnableBankingFailures.tooLarge();
    case 'unreachable':
      return EnableBankingFailures.unreachable();
    case 'malformed':
      return EnableBankingFailures.malformed(problem.detail);
    case 'too-many-pages':
      return EnableBankingFailures.tooManyPages(problem.pages);
  }
}

/** The session statuses of `GET /sessions/{id}` that end the consent, and what each becomes. */
const ENDED_STATUSES: Readonly<Record<string, keyof Failures>> = {
  EXPIRED: 'consentExpired',
  CLOSED: 'consentClosed',
  REVOKED: 'consentRevoked',
  // A session whose sign-in was cancelled or failed gives no access either: the user signs in again.
  CANCELLED: 'consentClosed',
  INVALID: 'consentClosed',
};

/** The failure a session status stands for, or undefined for AUTHORIZED (the one status that reads data). */
export function sessionStatusFailure(status: string): ConnectorFailure | undefined {
  if (status === 'AUTHORIZED') return undefined;
  if (Object.hasOwn(ENDED_STATUSES, status)) return (EnableBankingFailures[ENDED_STATUSES[status]!] as () => ConnectorFailure)();
  return EnableBankingFailures.unexpectedSessionStatus(status.replace(/[^A-Z0-9_]/gi, '').slice(0, 40));
}

/** Epoch seconds as "2026-11-25 10:00 UTC" (from the value given, never the system clock). */
export function formatEpoch(epoch: number): string {
  return `${new Date(epoch * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** One row of the mapping, for docs/connectors.md. */
export interface EnableBankingErrorRow {
  situation: string;
  code: AggregationFailureCode;
  message: string;
}

const api = (status: number, error?: string): EnableBankingProblem => (error === undefined ? { kind: 'api', status } : { kind: 'api', status, error });

/** The whole mapping, built from the functions above so the documentation cannot drift from the behaviour. */
export const ENABLE_BANKING_ERROR_TABLE: readonly EnableBankingErrorRow[] = (
  [
    ['`EXPIRED_SESSION`, or `GET /sessions/{id}` says EXPIRED, or the consent date has passed', failureOf(api(401, 'EXPIRED_SESSION'), 'read')],
    ['`CLOSED_SESSION` or `SESSION_DOES_NOT_EXIST`, or the session is CLOSED, CANCELLED or INVALID', failureOf(api(401, 'CLOSED_SESSION'), 'read')],
    ['`REVOKED_SESSION`, or the session is REVOKED', failureOf(api(401, 'REVOKED_SESSION'), 'read')],
    ['`WRONG_AUTHORIZATION_CODE`, `EXPIRED_AUTHORIZATION_CODE`, `ALREADY_AUTHORIZED`', failureOf(api(400, 'WRONG_AUTHORIZATION_CODE'), 'authorize')],
    ['Any other 4xx (but 429) of `POST /sessions`: the sign-in was not completed', failureOf(api(422), 'authorize')],
    ['`POST /sessions` shares no account', EnableBankingFailures.noAccountsShared()],
    ['`ASPSP_PSU_ACTION_REQUIRED`', failureOf(api(400, 'ASPSP_PSU_ACTION_REQUIRED'), 'read')],
    ['`ASPSP_ACCOUNT_NOT_ACCESSIBLE`, `ACCOUNT_DOES_NOT_EXIST`', failureOf(api(404, 'ACCOUNT_DOES_NOT_EXIST'), 'read')],
    ['`ASPSP_RATE_LIMIT_EXCEEDED`, or HTTP 429 without a code', failureOf(api(429, 'ASPSP_RATE_LIMIT_EXCEEDED'), 'read')],
    [
      `The day's ${UNATTENDED_READS_PER_DAY} unattended reads are used (the bank is not asked)`,
      EnableBankingFailures.dailyReadsUsed(UNATTENDED_READS_PER_DAY, '<time>'),
    ],
    ['`ASPSP_ERROR`, `ASPSP_TIMEOUT`', failureOf(api(400, 'ASPSP_ERROR'), 'read')],
    [
      '`UNAUTHORIZED_ACCESS`, `AUTHORIZATION_NOT_PROVIDED`, `ACCESS_DENIED`, `UNAUTHORIZED_IP`, `REDIRECT_URI_NOT_ALLOWED`, `PSU_HEADER_NOT_PROVIDED`',
      failureOf(api(401, 'UNAUTHORIZED_ACCESS'), 'read'),
    ],
    ['HTTP 5xx', failureOf(api(500), 'read')],
    ['Any other status or code (3xx redirects are not followed)', failureOf(api(400, 'WRONG_REQUEST_PARAMETERS'), 'read')],
    ['`GET /sessions/{id}` gives a status not named above (PENDING_AUTHORIZATION, ...)', EnableBankingFailures.unexpectedSessionStatus('<status>')],
    ['Timeout', failureOf({ kind: 'timeout' }, 'read')],
    ['Connection refused, DNS or TLS failure', failureOf({ kind: 'unreachable' }, 'read')],
    ['Address refused by the outbound target policy (nothing is sent)', failureOf({ kind: 'refused' }, 'read')],
    ['Answer larger than the transport reads', failureOf({ kind: 'too-large' }, 'read')],
    ['Answer not JSON, or an amount that is not a decimal number', failureOf({ kind: 'malformed', detail: '<where>' }, 'read')],
    ['Transactions still continue after the most pages read at once', failureOf({ kind: 'too-many-pages', pages: MAX_TRANSACTION_PAGES }, 'read')],
  ] as const
).map(([situation, failure]) => ({ situation, code: failure.code, message: failure.message }));
