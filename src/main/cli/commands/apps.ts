import { decideApp, listAllApps, type OperatorDecision } from '../../../modules/apps/service.js';
import { print as printText, printJson } from '../../../platform/terminal-text.js';
import { dataOptions, parse, UsageError } from '../args.js';
import { withRuntime } from '../store.js';

const USAGE = 'ledgerlink apps list [--status P|A|R] | approve PREAPPID [--note TEXT] | reject PREAPPID --note TEXT  [--json] [--data DIR]';

const STATUS_WORDS: Record<string, string> = { P: 'pending', A: 'approved', R: 'rejected' };

function decided(d: OperatorDecision): string[] {
  return [
    `App registration ${d.preAppId} (${d.appName}) of partner ${d.partnerId}: ${STATUS_WORDS[d.status]}.`,
    ...(d.applicationId ? [`applicationId  ${d.applicationId}`] : []),
    `note           ${d.note}`,
  ];
}

/**
 * `ledgerlink apps ...`: the operator's side of app registration (docs/app-registration.md), directly in the data
 * store: every partner's registrations, and approving or rejecting one. In production mode a registration stays
 * pending until approved here; in sandbox mode it is approved by itself after a while, or here sooner.
 */
export async function apps(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { ...dataOptions, note: { type: 'string' }, status: { type: 'string' } }, USAGE);
  const [action, preAppId] = positionals;
  const json = values.json ?? false;
  switch (action) {
    case 'list': {
      const status = values.status?.trim().toUpperCase();
      if (status !== undefined && !(status in STATUS_WORDS)) throw new UsageError(`unknown status "${values.status}"`, 'use --status P, A or R');
      const rows = await withRuntime(values.data, (rt) => listAllApps(rt, status));
      if (json) {
        printJson({ applications: rows });
        return;
      }
      if (rows.length === 0) {
        printText(status ? `No app registration is ${STATUS_WORDS[status]}.` : 'No app registration in this data store.');
        return;
      }
      printText(
        rows
          .map(
            (r) =>
              `${String(r.preAppId).padEnd(8)} ${(STATUS_WORDS[r.status] ?? r.status).padEnd(9)} partner ${r.partnerId}  ${r.appName}${r.applicationId ? `  (${r.applicationId})` : ''}`,
          )
          .join('\n'),
      );
      return;
    }
    case 'approve':
    case 'reject': {
      if (!preAppId) throw new UsageError(`apps ${action} needs a pre-app id`, `usage: ${USAGE}`);
      if (action === 'reject' && !values.note?.trim()) throw new UsageError('apps reject needs --note TEXT', 'the note tells the partner why');
      const decision = await withRuntime(values.data, (rt) => decideApp(rt, preAppId, action === 'approve' ? 'A' : 'R', values.note));
      if (json) printJson({ ...decision });
      else printText(decided(decision).join('\n'));
      return;
    }
    default:
      throw new UsageError(action ? `unknown apps action "${action}"` : 'apps needs an action', `usage: ${USAGE}`);
  }
}
