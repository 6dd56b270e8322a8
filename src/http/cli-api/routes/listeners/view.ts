import type { Static } from 'typebox';
import { ServiceError } from '../../../../contract/errors/service-error.js';
import type { CliListener } from '../../../../contract/schemas/cli.js';
import type { PolledListener } from '../../../../outbox/listeners.js';

/** A polled listener as the CLI API answers it. */
export function listenerView(l: PolledListener): Static<typeof CliListener> {
  return { listenerId: l.id, partnerId: l.partnerId, target: l.target, expiresAt: l.expiresAt };
}

/** The partner's live listener, or 404: unknown, another partner's, removed, or lapsed (its listen then registers again). */
export function found<T>(listener: T | undefined, id: number): T {
  if (!listener) throw new ServiceError('ResourceNotFound', `Listener ${id} not found: it was removed, or lapsed without renewal`);
  return listener;
}
