#!/usr/bin/env node
import { ConfigError } from '../config.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { UsageError } from './args.js';
import { print, printError } from '../../platform/terminal-text.js';
/**
 * Each command's module is loaded when that command runs, so a command loads only what it uses (`partner create`
 * never loads the HTTP server, TLS certificate generation or the mailer).
 */
const COMMANDS: Record<string, { load: () => Promise<(argv: string[]) => Promise<void>>; help: string }> = {
  serve: { load: async () => (await import('./commands/serve.js')).serve, help: 'start the HTTP service' },
  partner: { load: async () => (await import('./commands/partner.js')).partner, help: 'create a partner, rotate its app key, revoke its tokens, unlock it' },
  cert: { load: async () => (await import('./commands/cert.js')).cert, help: 'generate a self-signed development TLS certificate' },
  worker: { load: async () => (await import('./commands/worker.js')).worker, help: 'run only the delivery worker (push, webhooks, e-mail)' },
  deliveries: { load: async () => (await import('./commands/deliveries.js')).deliveries, help: 'list deliveries with their attempts, redeliver one' },
  logs: { load: async () => (await import('./commands/logs.js')).logs, help: 'show the latest API requests (--follow to keep watching)' },
  seed: { load: async () => (await import('./commands/seed.js')).seed, help: 'add N testing customers with linked test-bank accounts (progress bar)' },
  mail: { load: async () => (await import('./commands/mail.js')).mail, help: 'read the local mailbox (e-mail kept when SMTP_URL is not set)' },
  experience: { load: async () => (await import('./commands/experience.js')).experience, help: 'set or show a Connect experience (app name, logo, colour)' },
  institutions: {
    load: async () => (await import('./commands/institutions.js')).institutions,
    help: 'add an OFX Direct Connect institution, or override its server (add-ofx)',
  },
  sandbox: {
    load: async () => (await import('./commands/sandbox.js')).sandbox,
    help: "sandbox controls: advance a customer's clock, set or clear a login error, reset a customer",
  },
  trigger: { load: async () => (await import('./commands/trigger.js')).trigger, help: 'fire a TxPUSH or Connect webhook event (`trigger --help` lists them)' },
  listen: {
    load: async () => (await import('./commands/listen.js')).listen,
    help: 'receive TxPUSH and webhook deliveries, print them, forward them (--forward-to URL)',
  },
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
  const run = await command.load();
  await run(rest);
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
