import { pino, type Logger } from 'pino';

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

/** The process logger: JSON lines to stdout, secrets redacted. */
export function redactedLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/**
 * A request's logger, made only when something is logged at an enabled level. Fastify gives every request a child
 * logger bound to its id; with redaction configured, pino takes about 1.6 µs to make one, which a busy service
 * logging at `warn` pays on every request for nothing.
 */
export function lazyChildLogger(parent: Logger, bindings: Record<string, unknown>, options: Record<string, unknown>): Logger {
  // Fastify's stand-in when logging is off has no levels to ask: nothing to save there.
  if (typeof parent.isLevelEnabled !== 'function') return parent.child(bindings, options);
  let child: Logger | undefined;
  const real = () => (child ??= parent.child(bindings, options));
  const lazy: Record<string, unknown> = {
    child: (b: Record<string, unknown>, o?: Record<string, unknown>) => real().child(b, o),
    silent: () => {},
    isLevelEnabled: (level: string) => (child ?? parent).isLevelEnabled(level),
  };
  for (const level of LEVELS) {
    lazy[level] = (...args: unknown[]) => {
      if (!(child ?? parent).isLevelEnabled(level)) return;
      (real()[level] as (...a: unknown[]) => void)(...args);
    };
  }
  Object.defineProperty(lazy, 'level', { get: () => (child ?? parent).level, set: (level: string) => { real().level = level; }, enumerable: true });
  return lazy as unknown as Logger;
}
