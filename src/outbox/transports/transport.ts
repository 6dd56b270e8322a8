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
}

/** Sends one claimed delivery. Must not throw for a failed delivery, only report it; must end within its timeout. */
export type Transport = (delivery: ClaimedDelivery) => Promise<DeliveryOutcome>;

/** One line, bounded: for error texts built from what a remote party sent. */
export function excerpt(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? line.slice(0, max) + '…' : line;
}
