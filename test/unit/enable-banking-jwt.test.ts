import { verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JWT_LIFETIME_SECONDS, JWT_RENEW_BEFORE_SECONDS, JwtSigner } from '../../src/connectors/enablebanking/jwt.js';
import { applicationKey } from '../helpers/enable-banking-stub.js';

const APP_ID = 'cf589be3-3755-465b-a8df-a90a16a31403';
const T0 = 1_795_000_000;
const key = applicationKey();

function decode(token: string) {
  const [header, claims, signature] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header!, 'base64url').toString('utf8')),
    claims: JSON.parse(Buffer.from(claims!, 'base64url').toString('utf8')),
    signed: `${header}.${claims}`,
    signature: Buffer.from(signature!, 'base64url'),
  };
}

describe('the application JWT', () => {
  it('is three base64url parts: the RS256 header with the application id as kid, the claims, and a signature the public key verifies', () => {
    const token = new JwtSigner(APP_ID, key.privateKey, () => T0 * 1000).token();
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const { header, claims, signed, signature } = decode(token);
    expect(header).toEqual({ typ: 'JWT', alg: 'RS256', kid: APP_ID });
    expect(claims).toEqual({ iss: 'enablebanking.com', aud: 'api.enablebanking.com', iat: T0, exp: T0 + 3600 });
    expect(verify('sha256', Buffer.from(signed), key.publicKey, signature)).toBe(true);
    expect(verify('sha256', Buffer.from(`${signed}x`), key.publicKey, signature)).toBe(false);
  });

  it('lives an hour, under the day Enable Banking accepts, and is reused until a few minutes before it ends', () => {
    expect(JWT_LIFETIME_SECONDS).toBe(3600);
    expect(JWT_LIFETIME_SECONDS).toBeLessThan(86_400);
    let now = T0 * 1000;
    const signer = new JwtSigner(APP_ID, key.privateKey, () => now);
    const first = signer.token();
    now = (T0 + JWT_LIFETIME_SECONDS - JWT_RENEW_BEFORE_SECONDS - 1) * 1000;
    expect(signer.token()).toBe(first);
    now = (T0 + JWT_LIFETIME_SECONDS - JWT_RENEW_BEFORE_SECONDS) * 1000;
    const second = signer.token();
    expect(second).not.toBe(first);
    expect(decode(second).claims).toMatchObject({ iat: T0 + JWT_LIFETIME_SECONDS - JWT_RENEW_BEFORE_SECONDS });
  });

  it('is made again when the clock went back before its issue (Enable Banking would refuse it as not yet valid)', () => {
    let now = T0 * 1000;
    const signer = new JwtSigner(APP_ID, key.privateKey, () => now);
    const first = signer.token();
    now = (T0 - 120) * 1000;
    const again = signer.token();
    expect(again).not.toBe(first);
    expect(decode(again).claims.iat).toBe(T0 - 120);
  });

  it('is made on the real clock unless given another', () => {
    const before = Math.floor(Date.now() / 1000);
    const { claims } = decode(new JwtSigner(APP_ID, key.privateKey).token());
    const after = Math.floor(Date.now() / 1000);
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.iat).toBeLessThanOrEqual(after);
    expect(claims.exp - claims.iat).toBe(3600);
  });
});
