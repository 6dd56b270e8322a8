import type { Logger } from 'pino';

/** Runs `fn` once on SIGTERM or SIGINT, then exits 0 (or 1 when it fails). */
export function onShutdownSignal(logger: Logger, what: string, fn: () => Promise<void>): void {
  const shutdown = (signal: string) => {
    logger.info({ signal }, `shutting down: ${what}`);
    fn().then(
      () => process.exit(0),
      (e: unknown) => {
        logger.error({ err: e }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
