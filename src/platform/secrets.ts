import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { Semaphore } from './semaphore.js';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A uniformly random string over the given alphabet (rejection-free via randomInt). */
export function randomString(length: number, alphabet: string = ALPHANUMERIC): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** A random decimal string of the given length that does not start with 0. */
export function randomDigits(length: number): string {
  return String(randomInt(1, 10)) + randomString(length - 1, '0123456789');
}

/**
 * Fast hash for high-entropy random values (tokens, app keys): they cannot be brute-forced,
 * so a slow KDF would only cost latency on every request.
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

// scrypt cost for low-entropy, partner-chosen secrets. N=2^14, r=8 is ~16 MiB and tens of ms.
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

/**
 * How many scrypt derivations may run at once. Each holds 16 MiB for its tens of milliseconds of CPU, and
 * libuv's thread pool would otherwise run four at once (64 MiB) without answering sooner on a small machine:
 * two keep two cores busy. Authentication is rare (a token lasts two hours), so a larger machine loses little.
 */
export const SCRYPT_CONCURRENCY = 2;

const scryptSlots = new Semaphore(SCRYPT_CONCURRENCY);

/** scrypt with the memory bound every stored hash was made under, at most SCRYPT_CONCURRENCY at once. */
function scryptWithinLimit(secret: string, salt: Buffer, keylen: number, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  return scryptSlots.run(() => scryptAsync(secret, salt, keylen, { ...cost, maxmem: 64 * 1024 * 1024 }));
}

/** Hashes a partner-chosen secret with scrypt; the result embeds its parameters and salt. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptWithinLimit(secret, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Checks a secret against a stored scrypt hash in constant time. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, hashB64] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, 'base64');
  const actual = await scryptWithinLimit(secret, Buffer.from(saltB64, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Secrets this process has verified with scrypt, by the stored hash they matched: an HMAC of the secret under a
 * key made when the process started (never stored, never shared). A partner presenting the same secret again
 * against the same stored hash is verified by that HMAC (a few microseconds) instead of another scrypt (tens of
 * milliseconds and 16 MiB): clients that authenticate often cost little, and only wrong secrets, which are never
 * kept, pay for scrypt. A changed secret has a new stored hash, so what was kept for the old one is never used.
 * What it gives away: nothing a response does not (a wrong secret still takes the slow path); someone able to read
 * the process's memory could test guesses at HMAC speed, but such a reader already holds the master key and the
 * tokens.
 */
const verified = new Map<string, Buffer>();
const VERIFIED_MAX = 1024;
const verifiedKey = randomBytes(32);
const verifiedTag = (secret: string) => createHmac('sha256', verifiedKey).update(secret).digest();

/** Verifications running now, by stored hash and tag: the same secret presented again meanwhile waits for that one. */
const verifying = new Map<string, Promise<boolean>>();

/**
 * verifySecret, answered from the secrets this process verified before when it presents one of them again. A
 * client that opens many connections at once and authenticates on each makes one scrypt, not one per connection
 * (each costs 16 MiB while it runs).
 */
export async function verifySecretRemembered(secret: string, stored: string): Promise<boolean> {
  const tag = verifiedTag(secret);
  const known = verified.get(stored);
  if (known && timingSafeEqual(known, tag)) return true;
  const running = `${stored}\n${tag.toString('base64')}`;
  let verification = verifying.get(running);
  if (!verification) {
    verification = verifySecret(secret, stored)
      .then((ok) => {
        if (ok) {
          if (verified.size >= VERIFIED_MAX) verified.clear();
          verified.set(stored, tag);
        }
        return ok;
      })
      .finally(() => verifying.delete(running));
    verifying.set(running, verification);
  }
  return verification;
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** Derives a purpose-specific 32-byte key from the master key, so one configured key serves many uses. */
export function deriveKey(masterKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `ledgerlink:${purpose}`, 32));
}

/** HMAC-SHA256 as base64url. */
export function hmacBase64Url(key: Buffer, data: string): string {
  return createHmac('sha256', key).update(data).digest('base64url');
}

/** Encrypts a small secret for storage (AES-256-GCM); output is `v1.iv.tag.ciphertext` in base64url. */
export function encryptValue(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

/** Decrypts a value made by encryptValue; throws when the key is wrong or the value was altered. */
export function decryptValue(key: Buffer, stored: string): string {
  const [version, iv, tag, ct] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || ct === undefined) throw new Error('Unrecognised encrypted value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}

const SEALED_BYTES_VERSION = 1;

/** Encrypts a document for storage (AES-256-GCM, as encryptValue): a version byte, the IV, the tag, then the ciphertext. */
export function encryptBytes(key: Buffer, plaintext: Uint8Array): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([SEALED_BYTES_VERSION]), iv, cipher.getAuthTag(), ct]);
}

/** Decrypts a document made by encryptBytes; throws when the key is wrong or the bytes were altered. */
export function decryptBytes(key: Buffer, stored: Uint8Array): Buffer {
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (bytes.length < 29 || bytes[0] !== SEALED_BYTES_VERSION) throw new Error('Unrecognised encrypted document');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 13));
  decipher.setAuthTag(bytes.subarray(13, 29));
  return Buffer.concat([decipher.update(bytes.subarray(29)), decipher.final()]);
}
