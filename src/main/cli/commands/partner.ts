import { createPartner, listPartners, resetPartnerSecret, rotateAppKey, unlockPartner } from '../../../modules/partners/service.js';
import { revokePartnerTokens } from '../../../modules/partners/tokens.service.js';
import { dataOptions, HelpRequested, parse, UsageError } from '../args.js';
import { withRuntime } from '../store.js';
import { print as printText, printJson } from '../../../platform/terminal-text.js';

const USAGE =
  'ledgerlink partner create [--name N] [--plan testdrive|production] | list | rotate-key ID | revoke-tokens ID | unlock ID | reset-secret (ID | --partner ID) [--keep-tokens]  [--json] [--data DIR]';

/** Said after the options in `partner --help`. */
const NOTES = [
  'list shows every partner (id, plan, creation date, lock, name), never a secret or a key.',
  'reset-secret prints a new generated secret once; the old one stops working at once, also for running servers.',
  "It also revokes the partner's API tokens and ends its dashboard sessions, since whoever had the old secret may",
  'hold some; --keep-tokens leaves them. It does not lift a lock-out: `ledgerlink partner unlock ID` does.',
].join('\n');

function print(json: boolean, value: Record<string, unknown>, lines: string[]): void {
  if (json) printJson(value);
  else printText(lines.join('\n'));
}

const parseOptions = (argv: string[]) =>
  parse(
    argv,
    { ...dataOptions, name: { type: 'string' }, plan: { type: 'string' }, partner: { type: 'string' }, 'keep-tokens': { type: 'boolean', default: false } },
    USAGE,
  );

/** `ledgerlink partner ...`: manage partners directly in the database (works while a server runs). */
export async function partner(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (e) {
    throw e instanceof HelpRequested ? new HelpRequested(`${e.text}\n\n${NOTES}`) : e;
  }
  const { values, positionals } = parsed;
  const [action, positionalId] = positionals;
  if (positionalId !== undefined && values.partner !== undefined && positionalId !== values.partner)
    throw new UsageError(`two partner ids: ${positionalId} and --partner ${values.partner}`, 'give the partner id once');
  const id = positionalId ?? values.partner;
  const json = values.json ?? false;
  switch (action) {
    case 'create': {
      const plan = values.plan ?? 'testdrive';
      if (plan !== 'testdrive' && plan !== 'production') throw new UsageError(`unknown plan "${plan}"`, 'use --plan testdrive or --plan production');
      const creds = await withRuntime(values.data, (rt) => createPartner(rt, { name: values.name ?? 'Partner', plan }), { create: true });
      print(json, { ...creds }, [`partnerId     ${creds.partnerId}`, `partnerSecret ${creds.partnerSecret}`, `appKey        ${creds.appKey}`]);
      return;
    }
    case 'list': {
      const partners = await withRuntime(values.data, (rt) => listPartners(rt));
      if (json) {
        printJson(partners.map((p) => ({ ...p, createdAt: new Date(p.createdAt * 1000).toISOString() })));
        return;
      }
      if (partners.length === 0) {
        printText('No partner in this data store; create one with `ledgerlink partner create`.');
        return;
      }
      const rows = partners.map((p) => [
        p.partnerId,
        p.plan,
        new Date(p.createdAt * 1000).toISOString().slice(0, 19).replace('T', ' '),
        p.locked ? 'locked' : '',
        p.name,
      ]);
      const header = ['ID', 'PLAN', 'CREATED (UTC)', 'LOCKED', 'NAME'];
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
      printText(
        [header, ...rows]
          .map((r) =>
            r
              .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
              .join('  ')
              .trimEnd(),
          )
          .join('\n'),
      );
      return;
    }
    case 'reset-secret': {
      if (!id) throw new UsageError('partner reset-secret needs a partner id', `usage: ${USAGE}`);
      const keepTokens = values['keep-tokens'] ?? false;
      const r = await withRuntime(values.data, (rt) => resetPartnerSecret(rt, id, { keepTokens }));
      print(json, { ...r }, [
        `New partner secret for ${id}: ${r.partnerSecret}`,
        'It is shown only this time; keep it now. The old secret no longer works, also for running servers.',
        keepTokens
          ? 'Existing API tokens and dashboard sessions were kept (--keep-tokens).'
          : `Revoked ${r.revokedTokens} live token${r.revokedTokens === 1 ? '' : 's'} and ended ${r.endedSessions} dashboard session${r.endedSessions === 1 ? '' : 's'}; clients authenticate again with the new secret.`,
        ...(r.locked ? [`The partner is locked; lift it with \`ledgerlink partner unlock ${id}\`.`] : []),
      ]);
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
