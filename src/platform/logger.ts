import { pino, type DestinationStream, type Logger } from 'pino';
import { redactQuerySecrets } from './redact-query.js';
import { escapeJsonText } from './terminal-text.js';

/** Paths that may hold secrets; pino replaces them before anything is written. */
export const REDACT_PATHS = [
  'req.headers["service-app-key"]',
  'req.headers["service-app-token"]',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.partnerSecret',
  '*.newPartnerSecret',
  '*.token',
  '*.appKey',
  '*.signingKey',
];

/** Every finished log line: secrets in query strings redacted, characters a terminal acts on escaped. */
const finishLine = (line: string) => escapeJsonText(redactQuerySecrets(line));

/**
 * The process logger: JSON lines to stdout (or `destination`), secrets redacted. Secrets in query strings (a
 * Connect link's signature in a request URL, an OAuth code) sit inside strings no path names, and reach the log
 * through Fastify's request lines, log messages and error messages alike, so they are
 * redacted in each finished line, the one place every one of them passes. There too the C1 controls, DEL and bidi
 * marks a request may carry, which JSON leaves raw, are escaped: the lines reach the operator's terminal.
 */
export function redactedLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, hooks: { streamWrite: finishLine } };
  return destination ? pino(options, destination) : pino(options);
}
