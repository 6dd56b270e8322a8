#!/usr/bin/env node
import { ConfigError } from '../config.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { UsageError } from './args.js';
import { print, printError } from '../../platform/terminal-text.js';
import { cert } from './commands/cert.js';
import { deliveries } from './commands/deliveries.js';
import { listen } from './commands/listen.js';
import { logs } from './commands/logs.js';
import { experience } from './commands/experience.js';
import { institutions } from './commands/institutions.js';
import { mail } from './commands/mail.js';
import { partner } from './commands/partner.js';
import { sandbox } from './commands/sandbox.js';
import { seed } from './commands/seed.js';
import { serve } from './commands/serve.js';
import { trigger } from './commands/trigger.js';
import { worker } from './commands/worker.js';

const COMMANDS: Record<string, { run: (argv: string[]) => Promise<void>; help: string }> = {
  serve: { run: serve, help: 'start the HTTP service' },
  partner: { run: partner, help: 'create a partner, rotate its app key, revoke its tokens, unlock it' },
  cert: { run: cert, help: 'generate a self-signed development TLS certificate' },
  worker: { run: worker, help: 'run only the delivery worker (push, webhooks, e-mail)' },
  deliveries: { run: deliveries, help: 'list deliveries with their attempts, redeliver one' },
  logs: { run: logs, help: 'show the latest API requests (--follow to keep watching)' },
  seed: { run: seed, help: 'add N testing customers with linked test-bank accounts (progress bar)' },
  mail: { run: mail, help: 'read the local mailbox (e-mail kept when SMTP_URL is not set)' },
  experience: { run: experience, help: 'set or show a Connect experience (app name, logo, colour)' },
  institutions: { run: institutions, help: 'add an OFX Direct Connect institution, or override its server (add-ofx)' },
  sandbox: { run: sandbox, help: "sandbox controls: advance a customer's clock, set or clear a login error, reset a customer" },
  trigger: { run: trigger, help: 'fire a TxPUSH or Connect webhook event (`trigger --help` lists them)' },
  listen: { run: listen, help: 'receive TxPUSH and webhook deliveries, print them, forward them (--forward-to URL)' },
};

function usage(): string {
  return ['usage: ledgerlink <command> [options]', '', ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.help}`)].join('\n');
}

/** Runs the CLI; errors become one clear line plus a hint. */
export async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    print(usage());
    return;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(`unknown command "${name}"`, 'run `ledgerlink --help` for the list');
  await command.run(rest);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof UsageError) {
    printError(`error: ${e.message}${e.hint ? `\nhint: ${e.hint}` : ''}`);
    process.exit(2);
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
