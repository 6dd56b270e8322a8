import type { ClaimedDelivery } from '../claim.js';

/** What one attempt came to. */
export interface DeliveryOutcome {
  ok: boolean;
  /** HTTP status or SMTP reply code; null when nothing answered. */
  statusCode: number | null;
  /** Why it failed; null on success. */
  error: string | null;
  /** Retrying cannot help (e.g. an SMTP 5xx refusal): cancel at once. */
  permanent?: boolean;
  /** The start of what the receiver answered (see responseExcerpt); absent when nothing answered. */
  response?: string | null;
}

/** Sends one claimed delivery. Must not throw for a failed delivery, only report it; must end within its timeout. */
export type Transport = (delivery: ClaimedDelivery) => Promise<DeliveryOutcome>;

/** One line, bounded: for error texts built from what a remote party sent. */
export function excerpt(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? line.slice(0, max) + '…' : line;
}

/** Bytes of an answer kept with each attempt: enough to see why a receiver refused, little enough to keep. */
export const RESPONSE_EXCERPT_BYTES = 500;

/** The first RESPONSE_EXCERPT_BYTES bytes of an answer, as text, ending in … when there was more. */
export function responseExcerpt(body: string, more = false): string {
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length <= RESPONSE_EXCERPT_BYTES && !more) return body;
  // A character cut in half at the boundary decodes to U+FFFD: drop it rather than show a broken character.
  return `${bytes
    .subarray(0, RESPONSE_EXCERPT_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '')}…`;
}
