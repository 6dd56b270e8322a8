import { listMail, type MailView } from '../../delivery/service.js';
import { dataOptions, parse, positiveInteger, UsageError, withRuntime } from '../args.js';
import { isoTime } from './deliveries.js';

const USAGE = 'ledgerlink mail list [--partner ID] [--limit N] [--json] [--data DIR]';

function describe(m: MailView): string[] {
  return [
    `#${m.id}  ${isoTime(m.createdAt)}  partner ${m.partnerId}`,
    `From:    ${m.from}`,
    `To:      ${m.to}`,
    `Subject: ${m.subject}`,
    '',
    ...m.text.split('\n').map((l) => `  ${l}`),
    '',
  ];
}

/** `ledgerlink mail list`: the local mailbox, where e-mail goes when SMTP_URL is not set. */
export async function mail(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { ...dataOptions, partner: { type: 'string' }, limit: { type: 'string' } }, USAGE);
  const [action] = positionals;
  if (action !== 'list') throw new UsageError(action ? `unknown mail action "${action}"` : 'mail needs an action', `usage: ${USAGE}`);
  const limit = positiveInteger('--limit', values.limit, USAGE) ?? 50;
  const list = await withRuntime(values.data, (rt) => listMail(rt.database.kysely, { partnerId: values.partner, limit }));
  if (values.json) process.stdout.write(JSON.stringify({ messages: list }) + '\n');
  else process.stdout.write(list.length === 0 ? 'The local mailbox is empty.\n' : list.flatMap(describe).join('\n'));
}
