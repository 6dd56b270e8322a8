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

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger, made only when something is logged at an enabled level. Fastify gives every request a child
 * logger bound to its id; with redaction configured, pino takes about 1.6 µs to make one, which a busy service
 * logging at `warn` pays on every request for nothing. The stand-in is one small object: its methods live on the
 * prototype, so a request that logs nothing allocates no closures either.
 */
class LazyChildLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Record<string, unknown>,
    private readonly options: Record<string, unknown>,
  ) {}

  private real(): Logger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  private write(level: Level, args: unknown[]): void {
    if (!(this.made ?? this.parent).isLevelEnabled(level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): Logger {
    return this.real().child(bindings, options);
  }

  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }

  get level(): string {
    return (this.made ?? this.parent).level;
  }

  set level(level: string) {
    this.real().level = level;
  }
}

/** The logger Fastify gives a request (its childLoggerFactory): a LazyChildLogger when the parent has levels. */
export function lazyChildLogger(parent: Logger, bindings: Record<string, unknown>, options: Record<string, unknown>): Logger {
  // Fastify's stand-in when logging is off has no levels to ask: nothing to save there.
  if (typeof parent.isLevelEnabled !== 'function') return parent.child(bindings, options);
  return new LazyChildLogger(parent, bindings, options) as unknown as Logger;
}
