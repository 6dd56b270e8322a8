import { setTimeout as sleep } from 'node:timers/promises';
import type { Static } from 'typebox';
import type { CliRequestList } from '../../../contract/schemas/cli.js';
import { listRequestLog } from '../../../modules/requestlog/service.js';
import type { RequestLogRow } from '../../../modules/requestlog/table.js';
import { dataOptions, parse, positiveInteger, UsageError } from '../args.js';
import { ServiceAnswer, type ServiceClient } from '../client.js';
import { ServiceError } from '../../../contract/errors/service-error.js';
import { checkPartnerOption, chooseTarget } from '../mode.js';
import { clientOptions } from '../settings.js';
import { withRuntime } from '../store.js';
import { jsonLine, oneLine, print } from '../../../platform/terminal-text.js';

const USAGE =
  'ledgerlink logs tail [--partner ID] [--status 4xx|404] [--method M] [--path TEXT] [--limit N] [--follow] [--json]  [--url URL --app-key KEY --partner-id ID | --profile NAME | --data DIR]';

/** Most entries one read asks for while following. */
const FOLLOW_BATCH = 1000;

function line(r: RequestLogRow): string {
  const code = r.error_code ? `  code ${r.error_code}` : '';
  const who = r.partner_id ? `  partner ${r.partner_id}` : '';
  // Method and path are what the client sent.
  return `${new Date(r.created_at_ms).toISOString()}  ${oneLine(r.method).padEnd(6)} ${oneLine(r.path)}  ${r.status}  ${r.latency_ms.toFixed(1)} ms${code}${who}`;
}

function printRows(rows: RequestLogRow[], json: boolean): void {
  if (rows.length > 0) print(rows.map((r) => (json ? jsonLine(r) : line(r))).join('\n'));
}

/** What to show: statuses, a method, text in the path. */
interface LogFilter {
  status?: string;
  method?: string;
  path?: string;
}

/** Reads the log: the latest `limit` entries, or those after an id; both oldest first. */
type LogReader = (query: LogFilter & { afterId?: number; limit: number }, signal: AbortSignal) => Promise<RequestLogRow[]>;

/** The service's answer as the stored row it comes from, so --json prints the same fields in both modes. */
function asRow(r: Static<typeof CliRequestList>['requests'][number]): RequestLogRow {
  return {
    id: r.id,
    partner_id: r.partnerId,
    method: r.method,
    path: r.path,
    route: r.route,
    status: r.status,
    latency_ms: r.latencyMs,
    error_code: r.errorCode,
    request_id: r.requestId,
    ip: r.ip,
    created_at_ms: r.at,
  };
}

function serviceReader(client: ServiceClient): LogReader {
  return async (query, signal) => (await client.call<Static<typeof CliRequestList>>('GET', '/cli/v1/requests', { query, signal })).requests.map(asRow);
}

/** A filter the log refuses (a status that is no status, say) is a mistake in the command line. */
function asUsageMistake(e: unknown): unknown {
  const refused = (e instanceof ServiceAnswer || e instanceof ServiceError) && e.status === 400;
  return refused ? new UsageError((e as Error).message, `usage: ${USAGE}`) : e;
}

/** Prints the latest entries and, with `follow`, new ones as they come, until SIGINT or SIGTERM. */
async function tail(read: LogReader, options: { filter: LogFilter; limit: number; follow: boolean; json: boolean; pollMs: number }): Promise<void> {
  const stop = new AbortController();
  const latest = await read({ ...options.filter, limit: options.limit }, stop.signal).catch((e: unknown) => {
    throw asUsageMistake(e);
  });
  printRows(latest, options.json);
  if (!options.follow) return;
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let afterId = latest.at(-1)?.id ?? 0;
  try {
    while (!stop.signal.aborted) {
      const rows = await read({ ...options.filter, afterId, limit: FOLLOW_BATCH }, stop.signal);
      printRows(rows, options.json);
      afterId = rows.at(-1)?.id ?? afterId;
      if (rows.length < FOLLOW_BATCH) await sleep(options.pollMs, undefined, { signal: stop.signal });
    }
  } catch (e) {
    if (!stop.signal.aborted) throw e;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * `ledgerlink logs tail`: the latest API requests, oldest first; `--follow` keeps printing new ones. In client mode
 * the partner's own requests at the service; in direct mode every partner's in the store (or --partner's).
 */
export async function logs(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    argv,
    {
      ...dataOptions,
      ...clientOptions,
      partner: { type: 'string' },
      status: { type: 'string' },
      method: { type: 'string' },
      path: { type: 'string' },
      limit: { type: 'string' },
      follow: { type: 'boolean', default: false },
    },
    USAGE,
  );
  if (positionals[0] !== 'tail') throw new UsageError(positionals[0] ? `unknown logs action "${positionals[0]}"` : 'logs needs an action', `usage: ${USAGE}`);
  const limit = positiveInteger('--limit', values.limit, USAGE) ?? 20;
  if (limit > FOLLOW_BATCH) throw new UsageError(`--limit must be at most ${FOLLOW_BATCH}`, `usage: ${USAGE}`);
  const filter = { status: values.status, method: values.method, path: values.path };
  const options = { filter, limit, follow: values.follow ?? false, json: values.json ?? false };
  const target = chooseTarget(values);
  if (target.mode === 'client') {
    checkPartnerOption(target.client, values.partner);
    // These reads are not in the request log (docs/cli.md), so following does not fill it.
    await tail(serviceReader(target.client), { ...options, pollMs: 1000 });
    return;
  }
  await withRuntime(target.dataDir, (rt) =>
    tail(
      async (query) => {
        const rows = await listRequestLog(rt.database.kysely, { partnerId: values.partner, ...query });
        return query.afterId === undefined ? rows.reverse() : rows;
      },
      { ...options, pollMs: 500 },
    ),
  );
}
