import { DELIVERY_KINDS, DELIVERY_STATUSES, type DeliveryKind, type DeliveryStatus } from '../../delivery/table.js';
import { listDeliveries, redeliverDelivery, type DeliveryView } from '../../delivery/service.js';
import { dataOptions, parse, positiveInteger, UsageError, withRuntime } from '../args.js';

const USAGE = 'ledgerlink deliveries list [--partner ID] [--status S] [--kind K] [--event ID] [--limit N] | redeliver DELIVERY_ID  [--json] [--data DIR]';

/** Epoch seconds as an ISO time, for people. */
export function isoTime(seconds: number | null): string {
  return seconds === null ? '-' : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

function describe(d: DeliveryView): string[] {
  const when = d.status === 'delivered' ? `delivered ${isoTime(d.deliveredAt)}`
    : d.status === 'cancelled' ? `cancelled ${isoTime(d.cancelledAt)}`
    : d.status === 'pending' ? `next attempt ${isoTime(d.nextAttemptAt)}` : 'attempt in progress';
  const lines = [`#${d.id}  ${d.kind}  ${d.status}  ${when}  partner ${d.partnerId}  event ${d.eventId}`, `    to ${d.target}`];
  for (const a of d.attempts) {
    lines.push(`    ${isoTime(a.attemptedAt)}  ${a.statusCode ?? '---'}  ${String(a.latencyMs).padStart(5)} ms  ${a.error ?? 'ok'}  (${a.workerId})`);
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
  const { values, positionals } = parse(argv, {
    ...dataOptions,
    partner: { type: 'string' },
    status: { type: 'string' },
    kind: { type: 'string' },
    event: { type: 'string' },
    limit: { type: 'string' },
  }, USAGE);
  const [action, id] = positionals;
  const json = values.json ?? false;
  switch (action) {
    case 'list': {
      const status = oneOf<DeliveryStatus>('status', values.status, DELIVERY_STATUSES);
      const kind = oneOf<DeliveryKind>('kind', values.kind, DELIVERY_KINDS);
      const limit = positiveInteger('--limit', values.limit, USAGE) ?? 50;
      const list = await withRuntime(values.data, (rt) => listDeliveries(rt.database.kysely, { partnerId: values.partner, status, kind, eventId: values.event, limit }));
      if (json) process.stdout.write(JSON.stringify({ deliveries: list }) + '\n');
      else process.stdout.write(list.length === 0 ? 'No deliveries.\n' : list.flatMap(describe).join('\n') + '\n');
      return;
    }
    case 'redeliver': {
      if (!id) throw new UsageError('deliveries redeliver needs a delivery id', `usage: ${USAGE}`);
      const deliveryId = positiveInteger('the delivery id', id, USAGE)!;
      const view = await withRuntime(values.data, (rt) => redeliverDelivery(rt.database.kysely, rt.clock, deliveryId));
      if (json) process.stdout.write(JSON.stringify({ delivery: view }) + '\n');
      else process.stdout.write(`Delivery ${view.id} (event ${view.eventId}) will be sent again now.\n`);
      return;
    }
    default:
      throw new UsageError(action ? `unknown deliveries action "${action}"` : 'deliveries needs an action', `usage: ${USAGE}`);
  }
}
