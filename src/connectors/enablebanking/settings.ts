/**
 * The source's settings (LEDGERLINK_ENABLE_BANKING_APP_ID, _KEY_FILE, _URL) and what is made of them at start: the
 * application's private key, read once, and the API's address. Anything wrong stops the start with an Error that names
 * the variable; no message ever holds the key.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { classifyAddress } from '../../platform/ip.js';
import { type PolicyMode, serverUrlProblem } from '../../platform/net/outbound.js';
import type { SourceSetting } from '../source.js';

export const ENABLE_BANKING_SETTINGS: readonly SourceSetting[] = [
  { name: 'APP_ID', description: "The application's id, from the Enable Banking control panel (the JWT's key id)." },
  {
    name: 'KEY_FILE',
    description:
      "Path of the application's private key (PEM, RSA), as the control panel gave it when the application was made. Read once at start; it never leaves the process.",
  },
  {
    name: 'URL',
    description:
      'The API address, https://api.enablebanking.com unless given. Plain http only to a loopback address and only in sandbox mode (a local test API).',
  },
];

export const DEFAULT_API_URL = 'https://api.enablebanking.com';

const PREFIX = 'LEDGERLINK_ENABLE_BANKING_';
/** A PEM key of 4,096 bits is about 3 KB: anything far larger is not a key file. */
const MAX_KEY_FILE_BYTES = 64 * 1024;
/** RSA keys shorter than this are no longer safe to sign with. */
const MIN_MODULUS_BITS = 2048;

/** Whether the settings the source cannot work without are given. */
export function hasRequiredSettings(settings: Readonly<Record<string, string>>): boolean {
  return Boolean(settings.APP_ID?.trim() && settings.KEY_FILE?.trim());
}

/** The application id, checked to be a plausible JWT key id. */
export function appIdOf(value: string | undefined): string {
  const id = (value ?? '').trim();
  if (!/^[\x21-\x7e]{1,128}$/.test(id)) throw new Error(`${PREFIX}APP_ID must be the application's id from the Enable Banking control panel`);
  return id;
}

/** Reads the application's private key. The errors name the file and the variable, never what the file holds. */
export function readPrivateKey(path: string): KeyObject {
  const variable = `${PREFIX}KEY_FILE`;
  let pem: Buffer;
  try {
    pem = readFileSync(path);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    throw new Error(`${variable}: the key file ${path} could not be read${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  const notAKey = `${variable}: ${path} is not an unencrypted PEM RSA private key (the one the Enable Banking control panel gave for the application)`;
  let key: KeyObject;
  try {
    if (pem.length > MAX_KEY_FILE_BYTES) throw new RangeError('too large');
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new Error(notAKey);
  } finally {
    pem.fill(0);
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new Error(`${variable}: ${path} holds a ${key.asymmetricKeyType ?? 'non-RSA'} key; Enable Banking needs an RSA key (RS256)`);
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_MODULUS_BITS) throw new Error(`${variable}: ${path} holds an RSA key of ${bits} bits; ${MIN_MODULUS_BITS} at least are needed`);
  return key;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost') return true;
  return net.isIP(host) !== 0 && classifyAddress(host) === 'loopback';
}

/**
 * The API's base address: https anywhere (the outbound target policy still checks where it leads when connecting),
 * plain http only to a loopback address in sandbox mode, for a local test API. No credentials, query or fragment.
 */
export function apiBaseUrl(value: string | undefined, mode: PolicyMode): URL {
  const variable = `${PREFIX}URL`;
  const given = value?.trim() || DEFAULT_API_URL;
  if (!URL.canParse(given)) throw new Error(`${variable} is not a URL`);
  const url = new URL(given);
  if (url.username || url.password) throw new Error(`${variable} must not hold a user name or password`);
  if (url.search || url.hash) throw new Error(`${variable} must not have a query or a fragment`);
  if (url.protocol === 'http:') {
    if (mode !== 'sandbox' || !isLoopback(url.hostname)) {
      throw new Error(`${variable} must be an https URL (plain http is allowed only to a loopback address, and only in sandbox mode)`);
    }
  } else if (url.protocol !== 'https:') {
    throw new Error(`${variable} must be an https URL`);
  }
  // What the address itself tells (an IP literal, `localhost`) is checked now rather than at every request.
  const refusal = serverUrlProblem(url, mode);
  if (refusal !== undefined) throw new Error(`${variable} is not allowed: ${refusal}`);
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}
