import type { Clock } from './clock.js';
import { errorFromResponse, type LedgerlinkError } from './errors.js';
import type { TokenKeeper } from './tokens.js';

/** How calls refused with 429 (rate limited) or 503 (unavailable) are tried again. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 4). 1 turns retries off. */
  attempts?: number;
  /** Wait before the first retry when the service sends no Retry-After, doubled for each further one (default 500 ms). */
  baseDelayMs?: number;
  /** Longest wait between attempts (default 30 s). A Retry-After longer than this is not waited for: the error is thrown. */
  maxDelayMs?: number;
}

export interface TransportOptions {
  appKey: string;
  tokens: TokenKeeper;
  clock: Clock;
  retry?: RetryOptions;
  /** The underlying fetch (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** Waits between attempts (default setTimeout); tests inject one. */
  sleep?: (ms: number) => Promise<void>;
  /** 0 ≤ n < 1, spreads backoff waits of many clients (default Math.random). */
  random?: () => number;
}

/** The one call that is made without a token. */
export const AUTHENTICATION_PATH = '/aggregation/v2/partners/authentication';

const RETRIED_STATUSES = new Set([429, 503]);
/** The token expired (docs/errors.md): authenticate again and repeat the call, once. */
const EXPIRED_TOKEN = '10023';

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before retry number `retry` (1-based): Retry-After when given, else exponential backoff with jitter. */
export function retryDelayMs(retry: number, error: LedgerlinkError, options: Required<RetryOptions>, random: () => number): number {
  if (error.retryAfterSeconds !== undefined) return error.retryAfterSeconds * 1000;
  const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  return Math.round(backoff * (0.8 + 0.2 * random()));
}

/**
 * A fetch for openapi-fetch that adds the partner's headers, keeps the shared token, authenticates again once
 * when the service says the token expired, retries 429 and 503 answers, and throws every other failure as a
 * LedgerlinkError. It answers only successful (2xx) responses.
 */
export function createTransport(options: TransportOptions): (request: Request) => Promise<Response> {
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const retry: Required<RetryOptions> = { attempts: 4, baseDelayMs: 500, maxDelayMs: 30_000, ...options.retry };

  return async function send(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const operation = `${request.method} ${url.pathname}`;
    const needsToken = !url.pathname.endsWith(AUTHENTICATION_PATH);
    let retries = 0;
    let reauthenticated = false;
    for (;;) {
      // Every attempt sends a fresh copy: a body can be read once.
      const attempt = request.clone();
      attempt.headers.set('service-app-key', options.appKey);
      if (!attempt.headers.has('accept')) attempt.headers.set('accept', 'application/json');
      const token = needsToken ? await options.tokens.get() : undefined;
      if (token !== undefined) attempt.headers.set('service-app-token', token);
      const response = await baseFetch(attempt);
      if (response.ok) return response;
      const error = await errorFromResponse(response, operation, options.clock.now());
      if (response.status === 401 && token !== undefined && error.code === EXPIRED_TOKEN && !reauthenticated) {
        reauthenticated = true;
        await options.tokens.renew(token);
        continue;
      }
      if (RETRIED_STATUSES.has(response.status) && retries + 1 < retry.attempts) {
        const wait = retryDelayMs(retries + 1, error, retry, random);
        if (wait <= retry.maxDelayMs) {
          retries++;
          await sleep(wait);
          continue;
        }
      }
      throw error;
    }
  };
}
