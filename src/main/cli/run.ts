import { HelpRequested, UsageError } from './args.js';
import { print } from '../../platform/terminal-text.js';
import { VERSION } from '../../platform/version.js';

type Command = { load: () => Promise<(argv: string[]) => Promise<void>>; help: string };

/**
 * Each command's module is loaded when that command runs, so a command loads only what it uses (`partner create`
 * never loads the HTTP server, TLS certificate generation or the mailer).
 */
export const COMMANDS: Record<string, Command> = {
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
  apps: {
    load: async () => (await import('./commands/apps.js')).apps,
    help: "app registrations: list every partner's, approve or reject one (production mode waits for this)",
  },
  sandbox: {
    load: async () => (await import('./commands/sandbox.js')).sandbox,
    help: "sandbox controls: advance a customer's clock, set or clear a login error, reset a customer",
  },
  logins: {
    load: async () => (await import('./commands/logins.js')).logins,
    help: "list a customer's institution logins: last refresh, next scheduled refresh, failures, source",
  },
  export: {
    load: async () => (await import('./commands/export.js')).exportCommand,
    help: "a customer's transactions, or one account's, as a CSV, OFX or QIF file (--out FILE or stdout)",
  },
  rules: {
    load: async () => (await import('./commands/rules.js')).rules,
    help: "a partner's transaction rules: list, add, remove, apply them again to stored transactions",
  },
  simplefin: {
    load: async () => (await import('./commands/simplefin.js')).simplefin,
    help: 'Ledgerlink as a SimpleFIN server: mint a setup token for a customer, list and revoke its accesses',
  },
  trigger: { load: async () => (await import('./commands/trigger.js')).trigger, help: 'fire a TxPUSH or Connect webhook event (`trigger --help` lists them)' },
  listen: {
    load: async () => (await import('./commands/listen.js')).listen,
    help: 'receive TxPUSH and webhook deliveries, print them, forward them (--forward-to URL)',
  },
  login: {
    load: async () => (await import('./commands/login.js')).login,
    help: 'check and save credentials of a running service (a profile) for the commands that talk to it',
  },
  logout: { load: async () => (await import('./commands/login.js')).logout, help: 'remove a saved profile' },
};

/** The top-level help: every command in a line. */
export function usage(): string {
  return [
    'usage: ledgerlink <command> [options]',
    '',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(12)} ${c.help}`),
    '',
    `  ${'help COMMAND'.padEnd(12)} show a command's usage and options (as does \`ledgerlink COMMAND --help\`)`,
    `  ${'version'.padEnd(12)} print the version (also --version, -v)`,
  ].join('\n');
}

function command(name: string): Command {
  const found = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!found) throw new UsageError(`unknown command "${name}"`, 'run `ledgerlink --help` for the list');
  return found;
}

/**
 * Runs the CLI: a command, or help (`--help`, `-h`, `help [COMMAND [ACTION]]`, `COMMAND [ACTION] --help`) or the
 * version (`--version`, `-v`, `version`) printed on stdout. Usage mistakes throw UsageError.
 */
export async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    print(VERSION);
    return;
  }
  if (!name || name === '--help' || name === '-h' || (name === 'help' && (rest.length === 0 || rest[0] === 'help' || rest[0] === 'version'))) {
    print(usage());
    return;
  }
  // `help COMMAND ACTION` is `COMMAND ACTION --help`: the command's own parsing answers it.
  const [commandName, args] = name === 'help' ? [rest[0]!, [...rest.slice(1), '--help']] : [name, rest];
  const run = await command(commandName).load();
  try {
    await run(args);
  } catch (e) {
    if (!(e instanceof HelpRequested)) throw e;
    print(e.text);
  }
}
