import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A mistake in how a command was called: printed as one line plus a hint, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** A command that could not do its work (a service that refused or could not be reached): one line plus a hint, exit code 1. */
export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** `--help` or `-h` on a command's line: its usage (`text`) goes to stdout and the CLI exits 0. */
export class HelpRequested extends Error {
  constructor(readonly text: string) {
    super('help requested');
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Whether `argv` asks for help: `--help` or `-h` anywhere before a `--` that ends the options. */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** A command's help: its usage, then a line per option (with its default, when it has one). */
export function helpText(usage: string, options: Options): string {
  const lines = Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ' VALUE' : ''}`;
    const notes = [o.multiple ? 'repeatable' : '', typeof o.default === 'string' ? `default ${o.default}` : ''].filter(Boolean).join(', ');
    return `  ${flag.padEnd(24)}${notes}`.trimEnd();
  });
  return [`usage: ${usage}`, '', 'options:', ...lines, `  ${'-h, --help'.padEnd(24)}show this help`].join('\n');
}

/** parseArgs' message (in Node's words, with an unbalanced quote in some) as one line in the CLI's own words. */
export function argumentsMessage(error: unknown): string {
  const { code, message = '' } = error as NodeJS.ErrnoException;
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
  const option = /--[^\s,<]+/.exec(quoted)?.[0] ?? quoted.split(' ')[0];
  if (option) {
    // A single dash may start a value rather than an option: say where such a value goes.
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
      return `unknown option "${option}"${option.startsWith('--') ? '' : ' (a value that starts with "-" goes after "--")'}`;
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      if (message.includes('does not take an argument')) return `${option} takes no value`;
      if (message.includes('ambiguous')) return `${option} needs a value (write ${option}=VALUE for one that starts with "-")`;
      if (message.includes('missing')) return `${option} needs a value`;
    }
  }
  return message.split('\n')[0] || 'invalid arguments';
}

/**
 * parseArgs with errors turned into UsageError. `--help` or `-h` throws HelpRequested with the command's help,
 * unless the command declares a `help` option and answers it itself.
 */
export function parse<T extends Options>(argv: string[], options: T, usage: string) {
  if (!Object.hasOwn(options, 'help') && asksForHelp(argv)) throw new HelpRequested(helpText(usage, options));
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(argumentsMessage(e), `usage: ${usage}`);
  }
}

/** Options every command that touches the database accepts. */
export const dataOptions = {
  data: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

/** A positive integer option, or a usage error naming it. */
export function positiveInteger(name: string, value: string | undefined, usage: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive integer (got "${value}")`, `usage: ${usage}`);
  return n;
}
