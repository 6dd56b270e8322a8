import type { Clock } from './clock.js';

/** The interface's advice: obtain a new token every 90 minutes (tokens live two hours). */
export const TOKEN_RENEWAL_MS = 90 * 60 * 1000;

/**
 * Keeps one partner token and shares it across every call. A token older than the renewal age is replaced
 * before use; concurrent callers that need a new token wait for one authentication (single flight).
 */
export class TokenKeeper {
  private current: { value: string; obtainedAt: number } | undefined;
  private inFlight: Promise<string> | undefined;

  constructor(
    private readonly authenticate: () => Promise<string>,
    private readonly clock: Clock,
    private readonly renewalMs: number = TOKEN_RENEWAL_MS,
  ) {}

  /** The shared token, renewed first when it is missing or older than the renewal age. */
  async get(): Promise<string> {
    const token = this.current;
    if (token && this.clock.now() - token.obtainedAt < this.renewalMs) return token.value;
    return this.renew();
  }

  /**
   * Obtains a new token. With `rejected` (a token the service refused as expired) nothing is done when another
   * caller already replaced that token: its replacement is answered instead.
   */
  async renew(rejected?: string): Promise<string> {
    if (rejected !== undefined && this.current && this.current.value !== rejected) return this.current.value;
    if (!this.inFlight) {
      // Aged from the moment the request left: the service's two hours start no later than that.
      const startedAt = this.clock.now();
      this.inFlight = this.authenticate()
        .then((value) => {
          this.current = { value, obtainedAt: startedAt };
          return value;
        })
        .finally(() => {
          this.inFlight = undefined;
        });
    }
    return this.inFlight;
  }

  /** Forgets the token, e.g. after the partner secret or app key changed. */
  clear(): void {
    this.current = undefined;
  }
}
