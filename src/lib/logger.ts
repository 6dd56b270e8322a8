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
