/**
 * Sign-in at the test bank: reading a credentials form, MFA challenges, and the signed tokens that carry
 * sessions, MFA states and OAuth codes without any server-side storage.
 */
import { hmacBase64Url, safeEqual } from '../../platform/secrets.js';
import type { Credential, LoginField, MfaAnswer, MfaChallenge } from '../connector.js';
import type { MfaQuestionSpec } from './profile-spec.js';

/**
 * Signs and verifies small JSON payloads: `base64url(json).hmac`. The connector hands these out as sessions,
 * MFA states and OAuth codes; whoever holds one cannot alter it.
 */
export class Signer {
  constructor(private readonly key: Buffer) {
    if (key.length < 32) throw new Error('The test bank signing key must be at least 32 bytes');
  }

  sign(purpose: string, payload: object): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${hmacBase64Url(this.key, `${purpose}.${body}`)}`;
  }

  /** The payload, or undefined when the token is malformed or was not signed for this purpose with this key. */
  verify(purpose: string, token: unknown): Record<string, unknown> | undefined {
    if (typeof token !== 'string') return undefined;
    const [body, mac, extra] = token.split('.');
    if (!body || !mac || extra !== undefined) return undefined;
    if (!safeEqual(mac, hmacBase64Url(this.key, `${purpose}.${body}`))) return undefined;
    try {
      const value: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
}

/** The sign-in form: `<institutionId>001` user id, `<institutionId>002` password. */
export function loginFields(institutionId: number): LoginField[] {
  return [
    { id: `${institutionId}001`, name: 'Banking Userid', label: 'User ID', kind: 'text', displayOrder: 1 },
    { id: `${institutionId}002`, name: 'Banking Password', label: 'Password', kind: 'password', displayOrder: 2 },
  ];
}

const PASSWORD_NAME = /pass|pin|secret/i;
const USER_NAME = /user|login|name|id/i;

/**
 * The user id and password of a submitted form. Fields are matched by id first (`<institutionId>001`/`002`),
 * then by name (anything mentioning a password, anything mentioning a user), then by position, so lenient
 * clients that send only names or two bare values still work.
 */
export function readCredentials(institutionId: number, credentials: readonly Credential[]): { username?: string; password?: string } {
  const byId = (suffix: string) => credentials.find((c) => c.id === `${institutionId}${suffix}`);
  let user = byId('001');
  let password = byId('002');
  const label = (c: Credential) => `${c.name ?? ''} ${c.id}`;
  password ??= credentials.find((c) => c !== user && PASSWORD_NAME.test(label(c)));
  user ??= credentials.find((c) => c !== password && !PASSWORD_NAME.test(label(c)) && USER_NAME.test(label(c)));
  if (!user && !password && credentials.length === 2) [user, password] = credentials;
  return { username: user?.value, password: password?.value };
}

const PICTURES: Record<NonNullable<MfaQuestionSpec['picture']>, string> = {
  sun:
    '<circle cx="60" cy="60" r="22" fill="#f5b400"/>' +
    Array.from({ length: 8 }, (_, i) => {
      const a = (i * Math.PI) / 4;
      const [x1, y1, x2, y2] = [60 + 30 * Math.cos(a), 60 + 30 * Math.sin(a), 60 + 44 * Math.cos(a), 60 + 44 * Math.sin(a)].map((v) => v.toFixed(1));
      return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#f5b400" stroke-width="6" stroke-linecap="round"/>`;
    }).join(''),
  anchor:
    '<circle cx="60" cy="24" r="9" fill="none" stroke="#1f3a60" stroke-width="6"/><line x1="60" y1="33" x2="60" y2="98" stroke="#1f3a60" stroke-width="6"/>' +
    '<line x1="40" y1="46" x2="80" y2="46" stroke="#1f3a60" stroke-width="6"/><path d="M24 70 Q30 100 60 100 Q90 100 96 70" fill="none" stroke="#1f3a60" stroke-width="6"/>',
  tree: '<rect x="52" y="78" width="16" height="30" fill="#7a4a1e"/><polygon points="60,10 96,80 24,80" fill="#2e8b3d"/>',
  house:
    '<rect x="28" y="54" width="64" height="52" fill="#c0392b"/><polygon points="60,16 102,56 18,56" fill="#6d4c41"/><rect x="52" y="78" width="16" height="28" fill="#fbe9e7"/>',
};

/** A small SVG picture as a data URL, for image challenges. */
export function pictureDataUrl(picture: NonNullable<MfaQuestionSpec['picture']>): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 120 120"><rect width="120" height="120" rx="12" fill="#eef3f8"/>${PICTURES[picture]}</svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** What the user sees of a question (never its answer). */
export function challengeOf(q: MfaQuestionSpec): MfaChallenge {
  if (q.kind === 'text') return { id: q.id, kind: 'text', prompt: q.prompt };
  if (q.kind === 'choice') return { id: q.id, kind: 'choice', prompt: q.prompt, options: [...(q.options ?? [])] };
  const image: MfaChallenge = { id: q.id, kind: 'image', prompt: q.prompt, image: pictureDataUrl(q.picture ?? 'sun') };
  if (q.options) image.options = [...q.options];
  return image;
}

function normalise(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** True when every question of the round has a matching answer (text case-insensitive, options by value). */
export function roundAnswered(round: readonly MfaQuestionSpec[], answers: readonly MfaAnswer[]): boolean {
  return round.every((q) => {
    const given = answers.find((a) => a.id === q.id);
    if (!given || typeof given.value !== 'string') return false;
    return q.kind === 'text' || (q.kind === 'image' && !q.options) ? normalise(given.value) === normalise(q.answer) : given.value.trim() === q.answer;
  });
}
