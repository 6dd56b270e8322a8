import type { Static } from 'typebox';
import type { FiredConnectWebhook, FiredTxPushEvent } from '../../../contract/schemas/sandbox.js';
import { createEngine } from '../../../modules/aggregation/engine.js';
import { enqueuePushNotifications } from '../../../modules/txpush/notify.service.js';
import { CONNECT_EVENT_TYPES } from '../../../modules/connect/webhooks.service.js';
import { fireConnectWebhook, fireTxPushEvent, TXPUSH_EVENT_TYPES } from '../../../modules/sandbox/controls.service.js';
import { dataOptions, parse, UsageError } from '../args.js';
import { checkPartnerOption, chooseTarget } from '../mode.js';
import { partnerNote, sandboxPartner } from '../sandbox-partner.js';
import { clientOptions } from '../settings.js';
import { withRuntime } from '../store.js';
import { oneLine, print, printError, printJson } from '../../../platform/terminal-text.js';

const USAGE =
  'ledgerlink trigger EVENT --customer ID [--account ID] [--transaction ID] [--webhook URL] [--partner ID] [--json]  [--url URL --app-key KEY --partner-id ID | --profile NAME | --data DIR]';

const CONNECT_PREFIX = 'connect.';

function eventList(): string {
  return [
    'TxPUSH events (need --customer and --account; the account needs a subscription):',
    ...TXPUSH_EVENT_TYPES.map((e) => `  ${e}`),
    "Connect webhook events (need --customer; --webhook URL or the customer's latest Connect link's webhook):",
    ...CONNECT_EVENT_TYPES.map((e) => `  ${CONNECT_PREFIX}${e}`),
  ].join('\n');
}

type Fired = { kind: 'connect'; result: Static<typeof FiredConnectWebhook> } | { kind: 'txpush'; result: Static<typeof FiredTxPushEvent> };

function describe(fired: Fired): string {
  if (fired.kind === 'connect') {
    const r = fired.result;
    return `Queued Connect webhook ${r.eventType} (event ${r.eventId}) for customer ${r.customerId} to ${oneLine(r.webhook)}.`;
  }
  const r = fired.result;
  const tx = r.transactionId ? ` transaction ${r.transactionId}` : '';
  return `Queued ${r.eventType} for account ${r.accountId}${tx} of customer ${r.customerId}: ${r.notifications} notification${r.notifications === 1 ? '' : 's'}.`;
}

/**
 * `ledgerlink trigger EVENT`: queues a TxPUSH notification or a Connect webhook for a customer, through the service's
 * sandbox API (client mode), or in the outbox of the data store (direct mode), where a running `ledgerlink serve` or
 * `ledgerlink worker` on the same store delivers it.
 */
export async function trigger(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    argv,
    {
      ...dataOptions,
      ...clientOptions,
      partner: { type: 'string' },
      customer: { type: 'string' },
      account: { type: 'string' },
      transaction: { type: 'string' },
      webhook: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    USAGE,
  );
  const [event] = positionals;
  if (values.help || !event) {
    process.stdout.write(`usage: ${USAGE}\n\n${eventList()}\n`);
    return;
  }
  const isConnect = event.startsWith(CONNECT_PREFIX) && (CONNECT_EVENT_TYPES as readonly string[]).includes(event.slice(CONNECT_PREFIX.length));
  const isTxPush = (TXPUSH_EVENT_TYPES as readonly string[]).includes(event);
  if (!isConnect && !isTxPush) throw new UsageError(`unknown event "${event}"`, 'run `ledgerlink trigger --help` for the list');
  const customerId = values.customer;
  if (!customerId) throw new UsageError(`trigger ${event} needs --customer ID`, `usage: ${USAGE}`);
  if (isTxPush && !values.account) throw new UsageError(`trigger ${event} needs --account ID`, `usage: ${USAGE}`);
  const connect = { eventType: event.slice(CONNECT_PREFIX.length), ...(values.webhook ? { webhook: values.webhook } : {}) };
  const txpush = { eventType: event, ...(values.transaction ? { transactionId: values.transaction } : {}) };
  const target = chooseTarget(values);
  let fired: Fired;
  let note: string;
  let deliveredBy: string;
  if (target.mode === 'client') {
    const { client } = target;
    checkPartnerOption(client, values.partner);
    const customer = `/sandbox/v1/customers/${encodeURIComponent(customerId)}`;
    fired = isConnect
      ? { kind: 'connect', result: await client.call('POST', `${customer}/webhooks/connect`, { body: connect }) }
      : { kind: 'txpush', result: await client.call('POST', `${customer}/accounts/${encodeURIComponent(values.account!)}/txpush/events`, { body: txpush }) };
    note = `partner ${client.partnerId} (the partner of the service credentials, at ${client.url})`;
    deliveredBy = `The service at ${client.url} delivers it.`;
  } else {
    ({ fired, note } = await withRuntime(target.dataDir, async (runtime) => {
      const picked = await sandboxPartner(runtime.database.kysely, values.partner, USAGE, customerId);
      const caller = { partnerId: picked.partnerId, plan: picked.plan };
      const engine = createEngine(runtime, { onEventsRecorded: enqueuePushNotifications });
      const result: Fired = isConnect
        ? { kind: 'connect', result: await fireConnectWebhook(engine, caller, { customerId, ...connect }) }
        : { kind: 'txpush', result: await fireTxPushEvent(engine, caller, { customerId, accountId: values.account!, ...txpush }) };
      return { fired: result, note: partnerNote(picked) };
    }));
    deliveredBy = 'A running `ledgerlink serve` or `ledgerlink worker` on this data store delivers it.';
  }
  if (values.json) printJson(fired.result);
  else {
    print(`${describe(fired)}\n${deliveredBy}`);
    // On stderr, so the result on stdout reads as before.
    printError(`Acted for ${note}.`);
  }
}
