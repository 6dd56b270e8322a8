import { DELIVERY_KINDS, DELIVERY_STATUSES, type DeliveryKind, type DeliveryStatus } from '../../../outbox/table.js';
import { listDeliveries, redeliverDelivery, type DeliveryView } from '../../../outbox/service.js';
import { dataOptions, parse, positiveInteger, UsageError, withRuntime } from '../args.js';
import { oneLine, print, printJson } from '../../../platform/terminal-text.js';

const USAGE = 'ledgerlink deliveries list [--partner ID] [--status S] [--kind K] [--event ID] [--limit N] | redeliver DELIVERY_ID  [--json] [--data DIR]';

/** Epoch seconds as an ISO time, for people. */
export function isoTime(seconds: number | null): string {
  return seconds === null ? '-' : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

function describe(d: DeliveryView): string[] {
  const when =
    d.status === 'delivered'
      ? `delivered ${isoTime(d.deliveredAt)}`
      : d.status === 'cancelled'
        ? `cancelled ${isoTime(d.cancelledAt)}`
        : d.status === 'pending'
          ? `next attempt ${isoTime(d.nextAttemptAt)}`
          : 'attempt in progress';
  // The target, the event id and the error (which quotes the listener's answer) come from outside.
  const lines = [`#${d.id}  ${d.kind}  ${d.status}  ${when}  partner ${oneLine(d.partnerId)}  event ${oneLine(d.eventId)}`, `    to ${oneLine(d.target)}`];
  for (const a of d.attempts) {
    lines.push(
      `    ${isoTime(a.attemptedAt)}  ${a.statusCode ?? '---'}  ${String(a.latencyMs).padStart(5)} ms  ${oneLine(a.error ?? 'ok')}  (${oneLine(a.workerId)})`,
    );
  }
  if (d.attempts.length === 0) lines.push('    no attempt yet');
  return lines;
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`unknown ${name} "${value}"`, `use one of: ${allowed.join(', ')}`);
  return value as T;
}

/** `ledgerlink deliveries ...`: list outbox deliveries with their attempts, and send one again. */
export async function deliveries(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    argv,
    {
      ...dataOptions,
      partner: { type: 'string' },
      status: { type: 'string' },
      kind: { type: 'string' },
      event: { type: 'string' },
      limit: { type: 'string' },
    },
    USAGE,
  );
  const [action, id] = positionals;
  const json = values.json ?? false;
  switch (action) {
    case 'list': {
      const status = oneOf<DeliveryStatus>('status', values.status, DELIVERY_STATUSES);
      const kind = oneOf<DeliveryKind>('kind', values.kind, DELIVERY_KINDS);
      const limit = positiveInteger('--limit', values.limit, USAGE) ?? 50;
      const list = await withRuntime(values.data, (rt) =>
        listDeliveries(rt.database.kysely, { partnerId: values.partner, status, kind, eventId: values.event, limit }),
      );
      if (json) printJson({ deliveries: list });
      else print(list.length === 0 ? 'No deliveries.' : list.flatMap(describe).join('\n'));
      return;
    }
    case 'redeliver': {
      if (!id) throw new UsageError('deliveries redeliver needs a delivery id', `usage: ${USAGE}`);
      const deliveryId = positiveInteger('the delivery id', id, USAGE)!;
      const view = await withRuntime(values.data, (rt) => redeliverDelivery(rt.database.kysely, rt.clock, deliveryId));
      if (json) printJson({ delivery: view });
      else print(`Delivery ${view.id} (event ${oneLine(view.eventId)}) will be sent again now.`);
      return;
    }
    default:
      throw new UsageError(action ? `unknown deliveries action "${action}"` : 'deliveries needs an action', `usage: ${USAGE}`);
  }
}
