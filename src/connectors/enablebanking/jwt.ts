/**
 * The application's credential on every request: a JWT signed RS256 with the application's private key, `kid` its
 * id. A JWT is three base64url parts (header, claims, and the signature of the first two joined by a dot), so
 * node:crypto makes it without a library. It lives an hour (Enable Banking accepts up to a day) and is reused until a
 * few minutes before it ends, on the real clock: Enable Banking checks it against its own, whatever the customer's
 * sandbox clock says.
 */
import { type KeyObject, sign } from 'node:crypto';

export const JWT_LIFETIME_SECONDS = 3600;
/** A token this close to its end is not sent: a slow request must not arrive with an expired one. */
export const JWT_RENEW_BEFORE_SECONDS = 300;

const ISSUER = 'enablebanking.com';
const AUDIENCE = 'api.enablebanking.com';

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** Makes and reuses the application's JWT. */
export class JwtSigner {
  private current: { token: string; issuedAt: number; expiresAt: number } | undefined;

  /** `clock`: milliseconds since the epoch (Date.now unless a test gives its own). */
  constructor(
    private readonly appId: string,
    private readonly key: KeyObject,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A token valid for a few minutes at least. */
  token(): string {
    const now = Math.floor(this.clock() / 1000);
    const current = this.current;
    // A clock that went back before the token's issue would have Enable Banking refuse it as not yet valid.
    if (current && now >= current.issuedAt && now < current.expiresAt - JWT_RENEW_BEFORE_SECONDS) return current.token;
    const expiresAt = now + JWT_LIFETIME_SECONDS;
    const signed = `${base64url({ typ: 'JWT', alg: 'RS256', kid: this.appId })}.${base64url({ iss: ISSUER, aud: AUDIENCE, iat: now, exp: expiresAt })}`;
    const signature = sign('sha256', Buffer.from(signed, 'ascii'), this.key).toString('base64url');
    this.current = { token: `${signed}.${signature}`, issuedAt: now, expiresAt };
    return this.current.token;
  }
}
