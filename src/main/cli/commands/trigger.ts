import { createEngine } from '../../../modules/aggregation/engine.js';
import { CONNECT_EVENT_TYPES } from '../../../modules/connect/webhooks.service.js';
import { fireConnectWebhook, fireTxPushEvent, TXPUSH_EVENT_TYPES } from '../../../modules/sandbox/controls.service.js';
import { dataOptions, parse, UsageError, withRuntime } from '../args.js';
import { partnerNote, type PickedPartner, sandboxPartner } from '../sandbox-partner.js';
import { oneLine, print, printError, printJson } from '../../../platform/terminal-text.js';

const USAGE = 'ledgerlink trigger EVENT --customer ID [--account ID] [--transaction ID] [--webhook URL] [--partner ID] [--json] [--data DIR]';

const CONNECT_PREFIX = 'connect.';

function eventList(): string {
  return [
    'TxPUSH events (need --customer and --account; the account needs a subscription):',
    ...TXPUSH_EVENT_TYPES.map((e) => `  ${e}`),
    "Connect webhook events (need --customer; --webhook URL or the customer's latest Connect link's webhook):",
    ...CONNECT_EVENT_TYPES.map((e) => `  ${CONNECT_PREFIX}${e}`),
  ].join('\n');
}

/**
 * `ledgerlink trigger EVENT`: queues a TxPUSH notification or a Connect webhook for a customer in the outbox of the
 * data store; a running `ledgerlink serve` or `ledgerlink worker` on the same store delivers it.
 */
export async function trigger(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    argv,
    {
      ...dataOptions,
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
  if (!values.customer) throw new UsageError(`trigger ${event} needs --customer ID`, `usage: ${USAGE}`);
  if (isTxPush && !values.account) throw new UsageError(`trigger ${event} needs --account ID`, `usage: ${USAGE}`);
  let picked: PickedPartner | undefined;
  const out = await withRuntime(values.data, async (runtime) => {
    picked = await sandboxPartner(runtime.database.kysely, values.partner, USAGE, values.customer);
    const caller = { partnerId: picked.partnerId, plan: picked.plan };
    const engine = createEngine(runtime);
    if (isConnect) {
      const r = await fireConnectWebhook(engine, caller, {
        customerId: values.customer!,
        eventType: event.slice(CONNECT_PREFIX.length),
        ...(values.webhook ? { webhook: values.webhook } : {}),
      });
      return { json: r, text: `Queued Connect webhook ${r.eventType} (event ${r.eventId}) for customer ${r.customerId} to ${oneLine(r.webhook)}.` };
    }
    const r = await fireTxPushEvent(engine, caller, {
      customerId: values.customer!,
      accountId: values.account!,
      eventType: event,
      ...(values.transaction ? { transactionId: values.transaction } : {}),
    });
    const tx = r.transactionId ? ` transaction ${r.transactionId}` : '';
    return {
      json: r,
      text: `Queued ${r.eventType} for account ${r.accountId}${tx} of customer ${r.customerId}: ${r.notifications} notification${r.notifications === 1 ? '' : 's'}.`,
    };
  });
  if (values.json) printJson(out.json);
  else {
    print(`${out.text}\nA running \`ledgerlink serve\` or \`ledgerlink worker\` on this data store delivers it.`);
    // On stderr, so the result on stdout reads as before.
    if (picked) printError(`Acted for ${partnerNote(picked)}.`);
  }
}
