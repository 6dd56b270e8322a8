/**
 * The states a delivery is shown in (dashboard, CLI), derived from what the outbox stores:
 * - pending: not attempted yet (since it was queued or last redelivered), or its first attempt is under way;
 * - retrying: attempted, failed, and will be tried again;
 * - failed: given up after a failed attempt (the six-hour retry window ran out, or the receiver refused it for good);
 * - delivered: acknowledged;
 * - cancelled: stopped without being given up on (its push subscription was deleted or replaced, the customer reset).
 */
export const DELIVERY_STATES = ['pending', 'retrying', 'failed', 'delivered', 'cancelled'] as const;

export type DeliveryState = (typeof DELIVERY_STATES)[number];
