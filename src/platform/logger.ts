import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { Config } from './dependencies.js';
import { redactUrlSecrets } from './redact-query.js';
import { escapeJsonText, multiLine, oneLine } from './terminal-text.js';

/**
 * Paths that may hold secrets; pino replaces them before anything is written. Header maps are redacted whole (every
 * value, whatever the header's name), as in the request log: Fastify's request lines carry no headers, and a header
 * map logged anywhere else (an error carrying the headers of a delivery) needs no rule of its own.
 */
export const REDACT_PATHS = [
  'headers.*',
  '*.headers.*',
  'webhookHeaders.*',
  '*.webhookHeaders.*',
  '*.partnerSecret',
  '*.newPartnerSecret',
  '*.token',
  '*.appKey',
  '*.signingKey',
  '*.ssn',
  '*.birthday',
];

/** How log lines are written: one JSON object a line, or one readable line (pino-pretty) each. */
export type LogFormat = 'json' | 'pretty';
/** LEDGERLINK_LOG_FORMAT: a format, or `auto` for pretty on a terminal and JSON otherwise. */
export type LogFormatSetting = 'auto' | LogFormat;

/** The format a process writes in: the one asked for, else pretty when stdout is a terminal (a person reads it). */
export function chooseLogFormat(setting: LogFormatSetting, stdoutIsTerminal: boolean): LogFormat {
  if (setting !== 'auto') return setting;
  return stdoutIsTerminal ? 'pretty' : 'json';
}

/**
 * Every finished log line: secrets of URLs (query parameters by name, user names and passwords) redacted, characters a
 * terminal acts on escaped.
 */
const finishLine = (line: string) => escapeJsonText(redactUrlSecrets(line, { json: true }));

/** Every string of a logged value with its control characters shown as escapes (stack traces keep their lines). */
function visibleStrings(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return key === 'stack' ? multiLine(value) : oneLine(value);
  if (Array.isArray(value)) return value.map((v) => visibleStrings(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visibleStrings(v, k)]));
  return value;
}

/**
 * A finished line for pino-pretty, which parses the JSON back (undoing its escapes) and prints the values raw: so
 * the values themselves carry the visible escapes.
 */
function finishPrettyLine(line: string): string {
  const finished = finishLine(line);
  try {
    return `${JSON.stringify(visibleStrings(JSON.parse(finished)))}\n`;
  } catch {
    return finished;
  }
}

/** A request's line as "request completed GET /path 200 in 3.1 ms" (either half alone when the other is absent). */
function requestMessage(log: Record<string, unknown>, messageKey: string): string {
  const msg = String(log[messageKey] ?? '');
  const req = log.req as { method?: string; url?: string } | undefined;
  const res = log.res as { statusCode?: number } | undefined;
  const parts = [msg];
  if (req?.method) parts.push(req.method, req.url ?? '');
  if (res?.statusCode !== undefined) parts.push(`${res.statusCode} in ${Number(log.responseTime ?? 0).toFixed(1)} ms`);
  return parts.join(' ');
}

/** pino-pretty, loaded on first use: a process that logs JSON never pays for it. */
const loadPretty = () => createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;

function prettyStream(destination: DestinationStream | undefined): DestinationStream {
  return loadPretty()({
    destination: destination ?? 1,
    sync: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,responseTime',
    messageFormat: requestMessage,
  });
}

/**
 * The process logger: JSON lines to stdout (or `destination`), secrets redacted; with `format` pretty, one readable
 * line each through pino-pretty instead (only then is its cost paid). Secrets in URLs (a Connect link's signature in
 * a request URL, an OAuth code, a password in a query parameter or before a host) sit inside strings no path names,
 * and reach the log through Fastify's request lines, log messages and error messages alike, so they are redacted in
 * each finished line, the one place every one of them passes, by the rules of the request log (redactUrlSecrets).
 * There too the C1 controls, DEL and bidi marks a request may carry, which JSON leaves raw, are escaped: the lines
 * reach the operator's terminal.
 */
export function redactedLogger(level: string, destination?: DestinationStream, format: LogFormat = 'json'): Logger {
  const pretty = format === 'pretty';
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, hooks: { streamWrite: pretty ? finishPrettyLine : finishLine } };
  const stream = pretty ? prettyStream(destination) : destination;
  return stream ? pino(options, stream) : pino(options);
}

/** The logger of a `serve` or `worker` process, in the format LEDGERLINK_LOG_FORMAT and stdout call for. */
export function processLogger(config: Pick<Config, 'logLevel' | 'logFormat'>): Logger {
  return redactedLogger(config.logLevel, undefined, chooseLogFormat(config.logFormat, process.stdout.isTTY === true));
}
