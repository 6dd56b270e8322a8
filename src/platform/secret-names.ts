/**
 * Which names of query parameters and headers stand for secrets, for the logs (the service's and the request log),
 * whatever the spelling a client chose: a name is read as a server would read it (percent-decoded, NULs and other
 * invisible characters dropped, compatibility forms folded, `token[]` or `user[password]` taken apart) and matched
 * by its words, so `pwd`, `X-Pin`, `mfa_answer`, `Password%00` and `token[0]` are all secrets, while `passport`,
 * `pinned` and `search` are not.
 */

/**
 * Words that make a name a secret's: passwords and passcodes, PINs, one-time codes and MFA answers, keys, tokens,
 * signatures, OAuth codes, states and verifiers, credentials, sessions and cookies. A word counts with a plural `s`.
 */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'passcode',
  'passphrase',
  'pass',
  'pwd',
  'pw',
  'pin',
  'otp',
  'totp',
  'mfa',
  'answer',
  'secret',
  'token',
  'key',
  'apikey',
  'signature',
  'sig',
  'code',
  'state',
  'verifier',
  'auth',
  'authorization',
  'credential',
  'session',
  'cookie',
]);

/** Compounds written as one word (`accesstoken`, `apikey`, `clientsecret`, `verificationcode`) end with one of these. */
const SECRET_SUFFIX = /(?:signature|sig|token|secret|password|passwd|passcode|pwd|key|code|state)s?$/;
/** Stems no innocent name holds anywhere (`passwordconfirm`, `tokenid`). */
const SECRET_STEM = /passw|passcode|secret|token|signature|credential/;
/**
 * Stems that make a header's name a credential's wherever they are (`Finicity-App-Key`, `MFA-Session`,
 * `Proxy-Authorization`): header names are few and fixed, so a looser rule costs nothing worth keeping.
 */
const SECRET_HEADER_STEM = /key|auth|cookie|session/;

/** Characters a name may hide among its letters: controls (NUL included), zero-width and direction marks, BOM. */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;
const NOT_PRINTABLE_ASCII = /[^\u0020-\u007e]/;
/** Word boundaries inside a name: `camelCase`, `HTTPHeader`, letters next to digits. */
const CAMEL = /([a-z\d])([A-Z])|([A-Z])([A-Z][a-z])/g;
const SEPARATORS = /[^a-z\d]+|(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])/;
const PLAIN_WORD = /^[a-z]+$/;

/**
 * The name as a server reads it: percent-decoded (again while that changes it, a few times at most), invisible
 * characters dropped, NFKC-folded.
 */
function readable(name: string): string {
  let n = name;
  for (let i = 0; i < 3 && (n.includes('%') || n.includes('+')); i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(n.replace(/\+/g, ' '));
    } catch {
      // A stray `%`: decoded where it can be.
      decoded = n.replace(/\+/g, ' ').replace(/%([\da-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    }
    if (decoded === n) break;
    n = decoded;
  }
  return NOT_PRINTABLE_ASCII.test(n) ? n.replace(INVISIBLE, '').normalize('NFKC') : n;
}

function isSecretWord(word: string): boolean {
  return SECRET_WORDS.has(word) || (word.length > 3 && word.endsWith('s') && SECRET_WORDS.has(word.slice(0, -1)));
}

/**
 * Whether the readable name names a secret: without its separators, by the end or a stem; or by one of its words,
 * split at separators and digits (`token[0]`, `pWd1`) or also where camel case says (`mfaAnswer`, `PINCode`).
 */
function namesSecret(readableName: string): boolean {
  const lower = readableName.toLowerCase();
  if (PLAIN_WORD.test(lower) && lower === readableName) return isSecretWord(lower) || SECRET_SUFFIX.test(lower) || SECRET_STEM.test(lower);
  const compact = lower.replace(/[^a-z\d]+/g, '');
  if (SECRET_SUFFIX.test(compact) || SECRET_STEM.test(compact)) return true;
  return lower.split(SEPARATORS).some(isSecretWord) || readableName.replace(CAMEL, '$1$3 $2$4').toLowerCase().split(SEPARATORS).some(isSecretWord);
}

/** Names worked out already, by kind, up to 64 characters each: the same few come with every request. Emptied when full. */
const MAX_REMEMBERED = 1024;
const MAX_REMEMBERED_NAME = 64;
const paramNames = new Map<string, boolean>();
const headerNames = new Map<string, boolean>();

function remembered(cache: Map<string, boolean>, name: string, decide: (name: string) => boolean): boolean {
  let secret = cache.get(name);
  if (secret === undefined) {
    secret = decide(name);
    if (name.length > MAX_REMEMBERED_NAME) return secret;
    if (cache.size >= MAX_REMEMBERED) cache.clear();
    cache.set(name, secret);
  }
  return secret;
}

const decideParam = (name: string) => namesSecret(readable(name));
const decideHeader = (name: string) => {
  const n = readable(name);
  return namesSecret(n) || SECRET_HEADER_STEM.test(n.toLowerCase());
};

/** Whether a query parameter of this name (as it appears in the URL, percent-encoded or not) holds a secret. */
export function isSecretParamName(name: string): boolean {
  return remembered(paramNames, name, decideParam);
}

/**
 * Whether a header of this name holds a credential: the rule of isSecretParamName, and any name holding `key`,
 * `auth`, `cookie` or `session`.
 */
export function isSecretHeaderName(name: string): boolean {
  return remembered(headerNames, name, decideHeader);
}
