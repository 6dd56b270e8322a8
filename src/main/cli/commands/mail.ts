import type { Static } from 'typebox';
import type { CliMailbox } from '../../../contract/schemas/cli.js';
import { listMail, type MailView } from '../../../outbox/service.js';
import { dataOptions, parse, positiveInteger, UsageError } from '../args.js';
import { checkPartnerOption, chooseTarget } from '../mode.js';
import { clientOptions } from '../settings.js';
import { withRuntime } from '../store.js';
import { multiLine, oneLine, print, printJson } from '../../../platform/terminal-text.js';
import { isoTime } from './deliveries.js';

const USAGE = 'ledgerlink mail list [--partner ID] [--limit N] [--json]  [--url URL --app-key KEY --partner-id ID | --profile NAME | --data DIR]';

function describe(m: MailView): string[] {
  return [
    `#${m.id}  ${isoTime(m.createdAt)}  partner ${oneLine(m.partnerId)}`,
    `From:    ${oneLine(m.from)}`,
    `To:      ${oneLine(m.to)}`,
    `Subject: ${oneLine(m.subject)}`,
    '',
    ...multiLine(m.text)
      .split('\n')
      .map((l) => `  ${l}`),
    '',
  ];
}

/**
 * `ledgerlink mail list`: the local mailbox, where e-mail goes when SMTP_URL is not set: the partner's at the
 * service in client mode, every partner's in the store (or --partner's) in direct mode.
 */
export async function mail(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { ...dataOptions, ...clientOptions, partner: { type: 'string' }, limit: { type: 'string' } }, USAGE);
  const [action] = positionals;
  if (action !== 'list') throw new UsageError(action ? `unknown mail action "${action}"` : 'mail needs an action', `usage: ${USAGE}`);
  const limit = positiveInteger('--limit', values.limit, USAGE) ?? 50;
  const target = chooseTarget(values);
  let list: MailView[];
  if (target.mode === 'client') {
    checkPartnerOption(target.client, values.partner);
    list = (await target.client.call<Static<typeof CliMailbox>>('GET', '/cli/v1/mail', { query: { limit } })).messages;
  } else {
    list = await withRuntime(target.dataDir, (rt) => listMail(rt.database.kysely, { partnerId: values.partner, limit }));
  }
  if (values.json) printJson({ messages: list });
  else print(list.length === 0 ? 'The local mailbox is empty.' : list.flatMap(describe).slice(0, -1).join('\n'));
}
