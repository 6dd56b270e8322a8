import type { Static } from 'typebox';
import type { InstitutionLoginStatusList } from '../../../contract/schemas/institution-logins.js';
import { createEngine } from '../../../modules/aggregation/engine.js';
import { listInstitutionLoginStatuses, type NamedLoginStatusRecord } from '../../../modules/aggregation/login-status.service.js';
import { enqueuePushNotifications } from '../../../modules/txpush/notify.service.js';
import { oneLine, print, printError, printJson } from '../../../platform/terminal-text.js';
import { dataOptions, parse, UsageError } from '../args.js';
import { checkPartnerOption, chooseTarget } from '../mode.js';
import { partnerNote, pickPartner } from '../sandbox-partner.js';
import { clientOptions } from '../settings.js';
import { withRuntime } from '../store.js';
import { isoTime } from './deliveries.js';

const USAGE = 'ledgerlink logins list --customer ID [--partner ID] [--json]  [--url URL --app-key KEY --partner-id ID | --profile NAME | --data DIR]';

const SOURCE_WORDS: Record<NamedLoginStatusRecord['source'], string> = {
  testbank: 'test bank',
  simplefin: 'SimpleFIN',
  ofx: 'OFX Direct Connect',
  enablebanking: 'Enable Banking',
  statementFile: 'statement files',
  none: 'no source serves it any more',
};

/** The next refresh in words: when, or why there is none. */
function nextRefresh(s: NamedLoginStatusRecord): string {
  switch (s.refreshSchedule) {
    case 'scheduled':
      return isoTime(s.nextRefreshDate ?? null);
    case 'retrying':
      return `${isoTime(s.nextRefreshDate ?? null)} (retrying after ${s.consecutiveFailures} failure${s.consecutiveFailures === 1 ? '' : 's'} in a row)`;
    case 'waitingForUser':
      return 'none: waits for the user to sign in again (Connect Fix)';
    case 'off':
      return 'none: scheduled refresh is off on this service';
    default:
      return 'none: refreshed only when asked';
  }
}

function describe(s: NamedLoginStatusRecord): string[] {
  const status =
    s.aggregationStatusCode === 0
      ? 'OK (0)'
      : `failed with ${s.aggregationStatusCode}${s.aggregationStatusMessage ? `: ${oneLine(s.aggregationStatusMessage)}` : ''}`;
  return [
    `Login ${s.institutionLoginId}  ${oneLine(s.institutionName)} (institution ${s.institutionId}), ${SOURCE_WORDS[s.source]}`,
    `  status        ${status}${s.refreshInProgress ? ' (a refresh runs now)' : ''}`,
    `  last attempt  ${isoTime(s.aggregationAttemptDate ?? null)}`,
    `  last success  ${isoTime(s.aggregationSuccessDate ?? null)}`,
    `  next refresh  ${nextRefresh(s)}`,
  ];
}

/**
 * `ledgerlink logins list --customer ID`: each institution login of a customer with its refresh status (the API's
 * institution login status), through the service in client mode or on the data store in direct mode.
 */
export async function logins(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { ...dataOptions, ...clientOptions, customer: { type: 'string' }, partner: { type: 'string' } }, USAGE);
  const [action] = positionals;
  if (action !== 'list') throw new UsageError(action ? `unknown logins action "${action}"` : 'logins needs an action', `usage: ${USAGE}`);
  const customerId = values.customer?.trim();
  if (!customerId) throw new UsageError('logins list needs --customer ID', `usage: ${USAGE}`);
  const target = chooseTarget(values);
  let list: Static<typeof InstitutionLoginStatusList>;
  let note: string;
  if (target.mode === 'client') {
    const { client } = target;
    checkPartnerOption(client, values.partner);
    list = await client.call('GET', `/cli/v1/customers/${encodeURIComponent(customerId)}/institutionLogins`);
    note = `partner ${client.partnerId} (the partner of the service credentials, at ${client.url})`;
  } else {
    ({ list, note } = await withRuntime(target.dataDir, async (runtime) => {
      const picked = await pickPartner(runtime.database.kysely, values.partner, USAGE, customerId);
      const engine = createEngine(runtime, { onEventsRecorded: enqueuePushNotifications });
      const institutionLogins = await listInstitutionLoginStatuses(engine, picked.partnerId, customerId);
      return { list: { customerId, institutionLogins }, note: partnerNote(picked) };
    }));
  }
  if (values.json) printJson(list);
  else {
    const count = list.institutionLogins.length;
    print(
      count === 0
        ? `Customer ${list.customerId} has no institution logins.`
        : [`Customer ${list.customerId}: ${count} institution login${count === 1 ? '' : 's'}`, ...list.institutionLogins.flatMap(describe)].join('\n'),
    );
    // On stderr, so the list on stdout reads the same in both modes.
    printError(`Listed for ${note}.`);
  }
}
