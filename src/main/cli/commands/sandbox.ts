import type { Static } from 'typebox';
import type { ClockAdvanceResult, CustomerResetResult, LoginErrorState } from '../../../contract/schemas/sandbox.js';
import { createEngine } from '../../../modules/aggregation/engine.js';
import { enqueuePushNotifications } from '../../../modules/txpush/notify.service.js';
import { advanceClock, clearLoginError, resetCustomer, SANDBOX_ERROR_CODES, setLoginError } from '../../../modules/sandbox/controls.service.js';
import { dataOptions, parse, positiveInteger, UsageError } from '../args.js';
import { checkPartnerOption, chooseTarget } from '../mode.js';
import { partnerNote, sandboxPartner } from '../sandbox-partner.js';
import { clientOptions } from '../settings.js';
import { withRuntime } from '../store.js';
import { print, printError, printJson } from '../../../platform/terminal-text.js';
import { isoTime } from './deliveries.js';

const USAGE =
  'ledgerlink sandbox clock CUSTOMER_ID --days N | error CUSTOMER_ID LOGIN_ID (--code N | --clear) | reset CUSTOMER_ID  [--partner ID] [--json]  [--url URL --app-key KEY --partner-id ID | --profile NAME | --data DIR]';

type Action =
  | { action: 'clock'; customerId: string; days: number }
  | { action: 'error'; customerId: string; loginId: string; code: number | undefined }
  | { action: 'reset'; customerId: string };

type Outcome =
  | { action: 'clock'; result: Static<typeof ClockAdvanceResult> }
  | { action: 'error'; result: Static<typeof LoginErrorState> }
  | { action: 'reset'; result: Static<typeof CustomerResetResult> };

function text(outcome: Outcome): string[] {
  switch (outcome.action) {
    case 'clock': {
      const r = outcome.result;
      const logins = r.institutionLogins.map(
        (l) => `  institution login ${l.institutionLoginId}: ${l.aggregationStatusCode === 0 ? 'refreshed' : `failed with ${l.aggregationStatusCode}`}`,
      );
      return [`Customer ${r.customerId}'s clock moved ahead ${r.days} days; it is now ${isoTime(r.customerDate)} for this customer.`, ...logins];
    }
    case 'error': {
      const r = outcome.result;
      return [
        r.aggregationStatusCode === 0
          ? `Institution login ${r.institutionLoginId} is healthy again.`
          : `Institution login ${r.institutionLoginId} is now in error ${r.aggregationStatusCode}: ${r.message}`,
      ];
    }
    case 'reset': {
      const r = outcome.result;
      return [`Customer ${r.customerId} reset: ${r.institutionLogins} institution logins and ${r.accounts} accounts removed.`];
    }
  }
}

function parseAction(positionals: string[], values: { days?: string; code?: string; clear?: boolean }): Action {
  const [action, customerId, loginId] = positionals;
  if (!action) throw new UsageError('sandbox needs an action: clock, error or reset', `usage: ${USAGE}`);
  if (!['clock', 'error', 'reset'].includes(action)) throw new UsageError(`unknown sandbox action "${action}"`, `usage: ${USAGE}`);
  if (!customerId) throw new UsageError(`sandbox ${action} needs a customer id`, `usage: ${USAGE}`);
  if (action === 'clock') {
    const days = positiveInteger('--days', values.days, USAGE);
    if (days === undefined) throw new UsageError('sandbox clock needs --days N', `usage: ${USAGE}`);
    return { action, customerId, days };
  }
  if (action === 'error') {
    if (!loginId) throw new UsageError('sandbox error needs a customer id and an institution login id', `usage: ${USAGE}`);
    if ((values.code === undefined) === !values.clear)
      throw new UsageError('sandbox error needs either --code N or --clear', `codes: ${SANDBOX_ERROR_CODES.join(', ')}`);
    return { action, customerId, loginId, code: values.code === undefined ? undefined : Number(values.code) };
  }
  return { action: 'reset', customerId };
}

/** `ledgerlink sandbox ...`: the sandbox controls, through the service's sandbox API or on the data store (docs/sandbox.md). */
export async function sandbox(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    argv,
    {
      ...dataOptions,
      ...clientOptions,
      partner: { type: 'string' },
      days: { type: 'string' },
      code: { type: 'string' },
      clear: { type: 'boolean', default: false },
    },
    USAGE,
  );
  const what = parseAction(positionals, values);
  const target = chooseTarget(values);
  let outcome: Outcome;
  let note: string;
  if (target.mode === 'client') {
    const { client } = target;
    checkPartnerOption(client, values.partner);
    const customer = `/sandbox/v1/customers/${encodeURIComponent(what.customerId)}`;
    switch (what.action) {
      case 'clock':
        outcome = { action: 'clock', result: await client.call('POST', `${customer}/clock`, { body: { days: what.days } }) };
        break;
      case 'error': {
        const path = `${customer}/institutionLogins/${encodeURIComponent(what.loginId)}/error`;
        outcome = {
          action: 'error',
          result: what.code === undefined ? await client.call('DELETE', path) : await client.call('PUT', path, { body: { code: what.code } }),
        };
        break;
      }
      default:
        outcome = { action: 'reset', result: await client.call('POST', `${customer}/reset`) };
    }
    note = `partner ${client.partnerId} (the partner of the service credentials, at ${client.url})`;
  } else {
    const done = await withRuntime(target.dataDir, async (runtime) => {
      const picked = await sandboxPartner(runtime.database.kysely, values.partner, USAGE, what.customerId);
      const caller = { partnerId: picked.partnerId, plan: picked.plan };
      const engine = createEngine(runtime, { onEventsRecorded: enqueuePushNotifications });
      let result: Outcome;
      switch (what.action) {
        case 'clock':
          result = { action: 'clock', result: await advanceClock(engine, caller, what.customerId, what.days) };
          break;
        case 'error':
          result = {
            action: 'error',
            result:
              what.code === undefined
                ? await clearLoginError(engine, caller, what.customerId, what.loginId)
                : await setLoginError(engine, caller, what.customerId, what.loginId, what.code),
          };
          break;
        default:
          result = { action: 'reset', result: await resetCustomer(engine, caller, what.customerId) };
      }
      return { result, note: partnerNote(picked) };
    });
    outcome = done.result;
    note = done.note;
  }
  if (values.json) printJson(outcome.result);
  else {
    print(text(outcome).join('\n'));
    // On stderr, so the result on stdout reads as before.
    printError(`Acted for ${note}.`);
  }
}
