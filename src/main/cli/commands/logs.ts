import { setTimeout as sleep } from 'node:timers/promises';
import { listRequestLog } from '../../../modules/requestlog/service.js';
import type { RequestLogRow } from '../../../modules/requestlog/table.js';
import { dataOptions, parse, positiveInteger, UsageError, withRuntime } from '../args.js';
import { jsonLine, oneLine, print } from '../../../platform/terminal-text.js';

const USAGE = 'ledgerlink logs tail [--partner ID] [--limit N] [--follow] [--json] [--data DIR]';

function line(r: RequestLogRow): string {
  const code = r.error_code ? `  code ${r.error_code}` : '';
  const who = r.partner_id ? `  partner ${r.partner_id}` : '';
  // Method and path are what the client sent.
  return `${new Date(r.created_at_ms).toISOString()}  ${oneLine(r.method).padEnd(6)} ${oneLine(r.path)}  ${r.status}  ${r.latency_ms.toFixed(1)} ms${code}${who}`;
}

function printRows(rows: RequestLogRow[], json: boolean): void {
  if (rows.length > 0) print(rows.map((r) => (json ? jsonLine(r) : line(r))).join('\n'));
}

/** `ledgerlink logs tail`: the latest API requests, oldest first; `--follow` keeps printing new ones. */
export async function logs(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    argv,
    { ...dataOptions, partner: { type: 'string' }, limit: { type: 'string' }, follow: { type: 'boolean', default: false } },
    USAGE,
  );
  if (positionals[0] !== 'tail') throw new UsageError(positionals[0] ? `unknown logs action "${positionals[0]}"` : 'logs needs an action', `usage: ${USAGE}`);
  const limit = positiveInteger('--limit', values.limit, USAGE) ?? 20;
  const json = values.json ?? false;
  await withRuntime(values.data, async (rt) => {
    const latest = (await listRequestLog(rt.database.kysely, { partnerId: values.partner, limit })).reverse();
    printRows(latest, json);
    if (!values.follow) return;
    let afterId = latest.at(-1)?.id ?? 0;
    let stop = false;
    const onSignal = () => (stop = true);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    while (!stop) {
      const rows = await listRequestLog(rt.database.kysely, { partnerId: values.partner, afterId, limit: 1000 });
      printRows(rows, json);
      afterId = rows.at(-1)?.id ?? afterId;
      if (rows.length < 1000) await sleep(500);
    }
  });
}
