import { CommandFailed } from './args.js';
import type { SettingSource } from './settings.js';

/** What client mode needs to reach a running service as one partner. */
export interface ServiceCredentials {
  url: string;
  appKey: string;
  partnerId: string;
  partnerSecret: string;
}

/** Where the credentials came from, for hints: the flags, environment variables or profile that set them. */
export type CredentialSources = Partial<Record<keyof ServiceCredentials, SettingSource>> & { profile?: string };

const AUTHENTICATION = '/aggregation/v2/partners/authentication';
/** Codes of a token that stopped working (revoked, expired, missing): the client authenticates again once. */
const STALE_TOKEN_CODES = new Set(['10022', '10023', '10024']);
/** The code of a path the service has no route for. */
const ROUTE_NOT_FOUND = '10404';
/** How long one ordinary call may take. */
const CALL_TIMEOUT_MS = 60_000;
/** How long a file may take to arrive whole (a large export streams for a while). */
const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;

/** An error answer of the service: its HTTP status and the catalogue code and message of its body. */
export class ServiceAnswer extends CommandFailed {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    hint?: string,
  ) {
    super(message, hint);
  }
}

export interface CallOptions {
  /** Query parameters; undefined ones are left out. */
  query?: object;
  body?: unknown;
  /** Ends the call early (Ctrl-C); the call then rejects with an AbortError. */
  signal?: AbortSignal;
  /** Longer than usual, for calls the service holds open (a long poll). */
  timeoutMs?: number;
}

function credentialHint(sources: CredentialSources): string {
  const from = [...new Set(Object.values(sources).filter((s): s is SettingSource => s === 'flag' || s === 'environment' || s === 'profile'))];
  const where = from.map((s) => (s === 'flag' ? 'the flags' : s === 'environment' ? 'the LEDGERLINK_* variables' : `profile ${sources.profile ?? 'default'}`));
  return `check the app key, partner id and secret${where.length > 0 ? ` (from ${where.join(' and ')})` : ''}, or run \`ledgerlink login\` again`;
}

/**
 * The CLI's connection to a running service: it authenticates as the partner (one token per command, renewed
 * when the service stops accepting it) and calls the API with the app key and token, like any partner client.
 */
export class ServiceClient {
  private token: string | undefined;

  constructor(
    readonly credentials: ServiceCredentials,
    private readonly sources: CredentialSources = {},
  ) {}

  get partnerId(): string {
    return this.credentials.partnerId;
  }

  get url(): string {
    return this.credentials.url;
  }

  /** Gets a token with the partner id and secret: what `login` uses to check credentials. */
  async authenticate(signal?: AbortSignal): Promise<void> {
    const res = await this.send('POST', AUTHENTICATION, {
      headers: { 'service-app-key': this.credentials.appKey },
      body: { partnerId: this.credentials.partnerId, partnerSecret: this.credentials.partnerSecret },
      signal,
    });
    if (res.status !== 200) {
      const { code, message } = await this.errorOf(res);
      if (res.status === 401 || res.status === 403)
        throw new ServiceAnswer(
          res.status,
          code,
          `the service at ${this.url} refused the credentials of partner ${this.partnerId}: ${message}`,
          credentialHint(this.sources),
        );
      throw new ServiceAnswer(res.status, code, `partner authentication at ${this.url} failed: ${message}`);
    }
    const token = ((await this.jsonOf(res)) as { token?: unknown }).token;
    if (typeof token !== 'string') throw this.notLedgerlink(res);
    this.token = token;
  }

  /** Calls the service as the partner; the answer's JSON, or a ServiceAnswer with the service's message. */
  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    const res = await this.answer(method, path, options);
    if (res.status === 204) return undefined as T;
    return (await this.jsonOf(res)) as T;
  }

  /** GETs a file the service answers (an export) as the partner: the response, its body unread; errors as call's. */
  async download(path: string, options: CallOptions = {}): Promise<Response> {
    return this.answer('GET', path, { ...options, timeoutMs: options.timeoutMs ?? DOWNLOAD_TIMEOUT_MS }, '*/*');
  }

  /** A successful answer of the service, its body unread; a stale token is renewed once. */
  private async answer(method: string, path: string, options: CallOptions, accept = 'application/json'): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      if (!this.token) await this.authenticate(options.signal);
      const res = await this.send(method, path + queryString(options.query), {
        headers: { accept, 'service-app-key': this.credentials.appKey, 'service-app-token': this.token! },
        body: options.body,
        signal: options.signal,
        timeoutMs: options.timeoutMs,
      });
      if (res.status >= 200 && res.status < 300) return res;
      const { code, message } = await this.errorOf(res);
      if (res.status === 401 && code !== undefined && STALE_TOKEN_CODES.has(code) && attempt === 1) {
        this.token = undefined;
        continue;
      }
      if (code === ROUTE_NOT_FOUND)
        throw new ServiceAnswer(
          res.status,
          code,
          `the service at ${this.url} does not know ${method} ${path}`,
          'is it an older Ledgerlink? Upgrade it, or use direct mode (--data DIR)',
        );
      if (res.status === 401)
        throw new ServiceAnswer(res.status, code, `the service at ${this.url} refused the credentials: ${message}`, credentialHint(this.sources));
      throw new ServiceAnswer(res.status, code, message);
    }
  }

  private async send(
    method: string,
    path: string,
    options: { headers: Record<string, string>; body?: unknown; signal?: AbortSignal; timeoutMs?: number },
  ): Promise<Response> {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? CALL_TIMEOUT_MS);
    try {
      return await fetch(this.url + path, {
        method,
        headers: { accept: 'application/json', ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
        redirect: 'manual',
      });
    } catch (e) {
      if (options.signal?.aborted) throw e;
      const err = e as Error & { cause?: Error & { code?: string } };
      const cause = err.name === 'TimeoutError' ? 'no answer in time' : (err.cause?.code ?? err.cause?.message ?? err.message);
      throw new CommandFailed(
        `cannot reach the Ledgerlink service at ${this.url}: ${cause}`,
        'is `ledgerlink serve` running there? The URL comes from --url, LEDGERLINK_URL or the profile `ledgerlink login` saved',
      );
    }
  }

  private async jsonOf(res: Response): Promise<unknown> {
    const type = res.headers.get('content-type') ?? '';
    if (!type.includes('json')) throw this.notLedgerlink(res);
    try {
      return await res.json();
    } catch {
      throw this.notLedgerlink(res);
    }
  }

  private async errorOf(res: Response): Promise<{ code: string | undefined; message: string }> {
    const body = (await this.jsonOf(res)) as { code?: unknown; message?: unknown };
    if (typeof body.message !== 'string') throw this.notLedgerlink(res);
    return { code: typeof body.code === 'string' ? body.code : undefined, message: body.message };
  }

  private notLedgerlink(res: Response): CommandFailed {
    return new CommandFailed(
      `${this.url} did not answer like a Ledgerlink service (HTTP ${res.status}, ${res.headers.get('content-type') || 'no content type'})`,
      'check the URL: it is the base URL the service prints when it starts, e.g. http://127.0.0.1:8080',
    );
  }
}

function queryString(query: CallOptions['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {}) as Array<[string, unknown]>) if (v !== undefined && v !== null) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}
