#!/usr/bin/env node
import { ConfigError } from '../config.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { CommandFailed, UsageError } from './args.js';
import { letWorkersKeepTheirLimits } from './memory-settings.js';
import { main } from './run.js';
import { printError } from '../../platform/terminal-text.js';

letWorkersKeepTheirLimits();

/** The `ledgerlink` command (commands are registered in run.ts); errors become one clear line plus a hint. */
main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof UsageError) {
    printError(`error: ${e.message}${e.hint ? `\nhint: ${e.hint}` : ''}`);
    process.exit(2);
  }
  if (e instanceof CommandFailed) {
    printError(`error: ${e.message}${e.hint ? `\nhint: ${e.hint}` : ''}`);
    process.exit(1);
  }
  if (e instanceof ConfigError || e instanceof ServiceError) {
    printError(`error: ${e.message}`);
    process.exit(1);
  }
  const err = e as NodeJS.ErrnoException;
  const hint =
    err.code === 'EADDRINUSE'
      ? '\nhint: another process uses that port; pick one with --port'
      : err.code === 'ECONNREFUSED'
        ? '\nhint: is the database server running and DATABASE_URL right?'
        : '';
  printError(`error: ${err.message}${hint}`);
  process.exit(1);
});
