import type { SimplefinAccessRecord, SimplefinTokenRecord } from '../../../contract/schemas/simplefin.js';
import { listAccesses, mintSetupToken, revokeAccess } from '../../../modules/simplefin/service.js';
import { oneLine, print, printError, printJson } from '../../../platform/terminal-text.js';
import { dataOptions, parse, UsageError } from '../args.js';
import { checkPartnerOption, chooseTarget } from '../mode.js';
import { partnerNote, pickPartner } from '../sandbox-partner.js';
import { clientOptions } from '../settings.js';
import { withRuntime } from '../store.js';

const USAGE =
  'ledgerlink simplefin token --customer ID [--account ID]... | accesses --customer ID | revoke --customer ID ACCESS_ID  [--partner ID] [--json]  [--url URL --app-key KEY --partner-id ID | --profile NAME | --data DIR]';

const ACTIONS = ['token', 'accesses', 'revoke'] as const;
type Action = (typeof ACTIONS)[number];

const when = (epoch: number) => new Date(epoch * 1000).toISOString().replace('.000Z', 'Z');

function describeAccess(a: SimplefinAccessRecord): string {
  const state = a.revokedDate !== undefined ? `revoked ${when(a.revokedDate)}` : 'active';
  const used = a.lastUsedDate !== undefined ? `last used ${when(a.lastUsedDate)}` : 'never used';
  const accounts = a.accountIds ? `accounts ${a.accountIds.join(', ')}` : 'all accounts';
  return `${a.id}  ${state}  claimed ${when(a.createdDate)}  ${used}  ${a.requests} request${a.requests === 1 ? '' : 's'} (${a.requestsToday} of ${a.dailyBudget} today)  ${accounts}`;
}

/**
 * `ledgerlink simplefin ...`: Ledgerlink as a SimpleFIN server (docs/simplefin-server.md): mint a setup token for a
 * customer, list the customer's accesses, revoke one; through the service's API in client mode, on the data store in
 * direct mode (whose LEDGERLINK_PUBLIC_URL then makes the claim URL).
 */
export async function simplefin(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    argv,
    { ...dataOptions, ...clientOptions, partner: { type: 'string' }, customer: { type: 'string' }, account: { type: 'string', multiple: true } },
    USAGE,
  );
  const [action, accessId] = positionals as [Action | undefined, string | undefined];
  if (!action || !ACTIONS.includes(action))
    throw new UsageError(action ? `unknown simplefin action "${oneLine(action)}"` : 'simplefin needs an action', `usage: ${USAGE}`);
  const customerId = values.customer?.trim();
  if (!customerId) throw new UsageError(`simplefin ${action} needs --customer ID`, `usage: ${USAGE}`);
  if (action === 'revoke' && !accessId) throw new UsageError('simplefin revoke needs an access id', `usage: ${USAGE}`);
  if (action !== 'token' && values.account?.length) throw new UsageError('--account goes with simplefin token only', `usage: ${USAGE}`);
  const accountIds = values.account?.map((a) => a.trim());
  const path = `/aggregation/v1/customers/${encodeURIComponent(customerId)}/simplefin`;

  const target = chooseTarget(values);
  let answer: SimplefinTokenRecord | { accesses: SimplefinAccessRecord[] } | undefined;
  let note: string;
  if (target.mode === 'client') {
    const { client } = target;
    checkPartnerOption(client, values.partner);
    note = `partner ${client.partnerId} (the partner of the service credentials, at ${client.url})`;
    if (action === 'token') answer = await client.call<SimplefinTokenRecord>('POST', `${path}/tokens`, { body: accountIds ? { accountIds } : {} });
    else if (action === 'accesses') answer = await client.call<{ accesses: SimplefinAccessRecord[] }>('GET', `${path}/accesses`);
    else await client.call('DELETE', `${path}/accesses/${encodeURIComponent(accessId!)}`);
  } else {
    ({ answer, note } = await withRuntime(target.dataDir, async (runtime) => {
      const picked = await pickPartner(runtime.database.kysely, values.partner, USAGE, customerId);
      const { partnerId } = picked;
      let result: typeof answer;
      if (action === 'token') result = await mintSetupToken(runtime, partnerId, customerId, accountIds);
      else if (action === 'accesses') result = { accesses: await listAccesses(runtime, partnerId, customerId) };
      else await revokeAccess(runtime, partnerId, customerId, accessId!);
      return { answer: result, note: partnerNote(picked) };
    }));
  }

  if (values.json) printJson(answer ?? { revoked: accessId });
  else if (action === 'token') {
    const token = answer as SimplefinTokenRecord;
    print(
      [
        token.setupToken,
        '',
        `Paste this setup token into the SimpleFIN client (Actual Budget, Firefly III's importer, ...). It is shown once,`,
        `and may be claimed once, until ${when(token.expiresAt)}.`,
      ].join('\n'),
    );
  } else if (action === 'accesses') {
    const list = (answer as { accesses: SimplefinAccessRecord[] }).accesses;
    print(list.length === 0 ? `No SimpleFIN accesses for customer ${oneLine(customerId)}.` : list.map(describeAccess).join('\n'));
  } else print(`Revoked SimpleFIN access ${oneLine(accessId!)}: its credentials are refused from now on.`);
  // On stderr, so what is on stdout reads the same in both modes.
  if (!values.json) printError(`For ${note}.`);
}
