import { createPartner, rotateAppKey, unlockPartner } from '../../../modules/partners/service.js';
import { revokePartnerTokens } from '../../../modules/partners/tokens.service.js';
import { dataOptions, parse, UsageError, withRuntime } from '../args.js';
import { print as printText, printJson } from '../../../platform/terminal-text.js';

const USAGE = 'ledgerlink partner create [--name N] [--plan testdrive|production] | rotate-key ID | revoke-tokens ID | unlock ID  [--json] [--data DIR]';

function print(json: boolean, value: Record<string, string | number>, lines: string[]): void {
  if (json) printJson(value);
  else printText(lines.join('\n'));
}

/** `ledgerlink partner ...`: manage partners directly in the database (works while a server runs). */
export async function partner(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { ...dataOptions, name: { type: 'string' }, plan: { type: 'string' } }, USAGE);
  const [action, id] = positionals;
  const json = values.json ?? false;
  switch (action) {
    case 'create': {
      const plan = values.plan ?? 'testdrive';
      if (plan !== 'testdrive' && plan !== 'production') throw new UsageError(`unknown plan "${plan}"`, 'use --plan testdrive or --plan production');
      const creds = await withRuntime(values.data, (rt) => createPartner(rt, { name: values.name ?? 'Partner', plan }));
      print(json, { ...creds }, [`partnerId     ${creds.partnerId}`, `partnerSecret ${creds.partnerSecret}`, `appKey        ${creds.appKey}`]);
      return;
    }
    case 'rotate-key': {
      if (!id) throw new UsageError('partner rotate-key needs a partner id', `usage: ${USAGE}`);
      const appKey = await withRuntime(values.data, (rt) => rotateAppKey(rt, id));
      print(json, { partnerId: id, appKey }, [`New app key for ${id}: ${appKey}`, 'The old key no longer works.']);
      return;
    }
    case 'revoke-tokens': {
      if (!id) throw new UsageError('partner revoke-tokens needs a partner id', `usage: ${USAGE}`);
      const { revoked } = await withRuntime(values.data, (rt) => revokePartnerTokens(rt, id));
      print(json, { partnerId: id, revoked }, [
        `Revoked ${revoked} live token${revoked === 1 ? '' : 's'} of partner ${id}, also for running servers. Its clients authenticate again for new ones.`,
      ]);
      return;
    }
    case 'unlock': {
      if (!id) throw new UsageError('partner unlock needs a partner id', `usage: ${USAGE}`);
      await withRuntime(values.data, (rt) => unlockPartner(rt, id));
      print(json, { partnerId: id, status: 'unlocked' }, [`Partner ${id} unlocked.`]);
      return;
    }
    default:
      throw new UsageError(action ? `unknown partner action "${action}"` : 'partner needs an action', `usage: ${USAGE}`);
  }
}
