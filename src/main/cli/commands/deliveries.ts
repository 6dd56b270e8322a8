import type { Static } from 'typebox';
import type { CliDeliveryList, CliRedelivered } from '../../../contract/schemas/cli.js';
import { DELIVERY_KINDS, type DeliveryKind } from '../../../outbox/table.js';
import { DELIVERY_STATES, type DeliveryState, listDeliveries, redeliverDelivery, type DeliveryView } from '../../../outbox/service.js';
import { dataOptions, parse, positiveInteger, UsageError } from '../args.js';
import { checkPartnerOption, chooseTarget } from '../mode.js';
import { clientOptions } from '../settings.js';
import { withRuntime } from '../store.js';
import { oneLine, print, printJson } from '../../../platform/terminal-text.js';

const USAGE =
  'ledgerlink deliveries list [--partner ID] [--status S] [--kind K] [--event-type T] [--target URL] [--event ID] [--limit N] | redeliver DELIVERY_ID  [--json]  [--url URL --app-key KEY --partner-id ID | --profile NAME | --data DIR]';

/** The most deliveries one list shows. */
const MAX_LIMIT = 1000;

/** Epoch seconds as an ISO time, for people. */
export function isoTime(seconds: number | null): string {
  return seconds === null ? '-' : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

function when(d: DeliveryView): string {
  switch (d.state) {
    case 'delivered':
      return `delivered ${isoTime(d.deliveredAt)}`;
    case 'failed':
      return `failed ${isoTime(d.cancelledAt)}`;
    case 'cancelled':
      return `cancelled ${isoTime(d.cancelledAt)}`;
    default:
      return d.inFlight ? 'attempt in progress' : `next attempt ${isoTime(d.nextAttemptAt)}`;
  }
}

function describe(d: DeliveryView): string[] {
  // The target, the event id and the error (which quotes the listener's answer) come from outside.
  const type = d.eventType ? `  ${oneLine(d.eventType)}` : '';
  const lines = [
    `#${d.id}  ${d.kind}  ${d.state}  ${when(d)}  partner ${oneLine(d.partnerId)}  event ${oneLine(d.eventId)}${type}`,
    `    to ${oneLine(d.target)}`,
  ];
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

/**
 * `ledgerlink deliveries ...`: list deliveries with their attempts, and send one again: the partner's at the service
 * in client mode, every partner's in the store (or --partner's) in direct mode.
 */
export async function deliveries(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    argv,
    {
      ...dataOptions,
      ...clientOptions,
      partner: { type: 'string' },
      status: { type: 'string' },
      kind: { type: 'string' },
      'event-type': { type: 'string' },
      target: { type: 'string' },
      event: { type: 'string' },
      limit: { type: 'string' },
    },
    USAGE,
  );
  const [action, id] = positionals;
  const json = values.json ?? false;
  switch (action) {
    case 'list': {
      const filter = {
        state: oneOf<DeliveryState>('status', values.status, DELIVERY_STATES),
        kind: oneOf<DeliveryKind>('kind', values.kind, DELIVERY_KINDS),
        eventType: values['event-type'],
        target: values.target,
        eventId: values.event,
        limit: positiveInteger('--limit', values.limit, USAGE) ?? 50,
      };
      if (filter.limit > MAX_LIMIT) throw new UsageError(`--limit must be at most ${MAX_LIMIT}`, `usage: ${USAGE}`);
      const target = chooseTarget(values);
      let list: DeliveryView[];
      if (target.mode === 'client') {
        checkPartnerOption(target.client, values.partner);
        list = (await target.client.call<Static<typeof CliDeliveryList>>('GET', '/cli/v1/deliveries', { query: filter })).deliveries;
      } else {
        list = await withRuntime(target.dataDir, (rt) => listDeliveries(rt.database.kysely, { ...filter, partnerId: values.partner }, rt.clock));
      }
      if (json) printJson({ deliveries: list });
      else print(list.length === 0 ? 'No deliveries.' : list.flatMap(describe).join('\n'));
      return;
    }
    case 'redeliver': {
      if (!id) throw new UsageError('deliveries redeliver needs a delivery id', `usage: ${USAGE}`);
      const deliveryId = positiveInteger('the delivery id', id, USAGE)!;
      const target = chooseTarget(values);
      let view: DeliveryView;
      if (target.mode === 'client') {
        checkPartnerOption(target.client, values.partner);
        view = (await target.client.call<Static<typeof CliRedelivered>>('POST', `/cli/v1/deliveries/${deliveryId}/redeliver`)).delivery;
      } else {
        view = await withRuntime(target.dataDir, (rt) => redeliverDelivery(rt.database.kysely, rt.clock, deliveryId, values.partner));
      }
      if (json) printJson({ delivery: view });
      else print(`Delivery ${view.id} (event ${oneLine(view.eventId)}) will be sent again now.`);
      return;
    }
    default:
      throw new UsageError(action ? `unknown deliveries action "${action}"` : 'deliveries needs an action', `usage: ${USAGE}`);
  }
}
