import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { argumentsMessage, asksForHelp, parse, UsageError } from '../../src/main/cli/args.js';
import { COMMANDS, main } from '../../src/main/cli/run.js';

/** Every command with the actions it takes (none: the command itself is the action). */
const ACTIONS: Record<string, string[]> = {
  serve: [],
  partner: ['create', 'list', 'rotate-key', 'revoke-tokens', 'unlock', 'reset-secret'],
  cert: ['generate'],
  worker: [],
  deliveries: ['list', 'redeliver'],
  logs: ['tail'],
  seed: [],
  mail: ['list'],
  experience: ['set', 'show'],
  institutions: ['add-ofx'],
  sandbox: ['clock', 'error', 'reset'],
  apps: ['list', 'approve', 'reject'],
  logins: ['list'],
  rules: ['list', 'add', 'remove', 'apply'],
  simplefin: ['token', 'accesses', 'revoke'],
  export: [],
  trigger: [],
  listen: [],
  login: [],
  logout: [],
};

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

let stdout = '';
beforeEach(() => {
  stdout = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

/** What `ledgerlink ...argv` prints on stdout, run in this process. */
async function run(...argv: string[]): Promise<string> {
  stdout = '';
  await main(argv);
  return stdout;
}

describe('ledgerlink help', () => {
  it('knows every registered command and its actions', () => {
    expect(Object.keys(ACTIONS).sort()).toEqual(Object.keys(COMMANDS).sort());
  });

  it.each(Object.keys(ACTIONS))('prints the usage of %s and of each of its actions for --help, -h and help COMMAND [ACTION]', async (command) => {
    for (const action of [undefined, ...ACTIONS[command]!]) {
      const words = action ? [command, action] : [command];
      const texts = [await run(...words, '--help'), await run(...words, '-h'), await run('help', ...words)];
      for (const text of texts) {
        expect(text).toMatch(new RegExp(`^usage: ledgerlink ${command}\\b`));
        if (action) expect(text).toContain(action);
      }
      expect(new Set(texts).size).toBe(1);
    }
  });

  it('lists each option of a command after its usage', async () => {
    const text = await run('cert', 'generate', '--help');
    expect(text).toMatch(/^usage: ledgerlink cert generate .*\n\noptions:\n/);
    expect(text).toMatch(/\n {2}--out VALUE +default \.\/data\/tls\n/);
    expect(text).toMatch(/\n {2}--host VALUE +repeatable\n/);
    expect(text).toMatch(/\n {2}-h, --help +show this help\n$/);
  });

  it('prints the list of commands for --help, -h, help and no command at all', async () => {
    const texts = [await run('--help'), await run('-h'), await run('help'), await run()];
    expect(new Set(texts).size).toBe(1);
    for (const name of Object.keys(COMMANDS)) expect(texts[0]).toMatch(new RegExp(`\\n {2}${name} +\\S`));
    expect(texts[0]).toContain('--version');
  });

  it('prints the package version for --version, -v and version', async () => {
    for (const flag of ['--version', '-v', 'version']) expect(await run(flag)).toBe(`${VERSION}\n`);
  });

  it('reports help for an unknown command as a usage mistake', async () => {
    const error = await main(['help', 'nope']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('unknown command "nope"');
    expect((error as UsageError).hint).toMatch(/ledgerlink --help/);
  });

  it('takes --help after -- as an argument, not a request for help', () => {
    expect(asksForHelp(['unlock', '--', '--help'])).toBe(false);
    expect(asksForHelp(['unlock', 'x', '--help'])).toBe(true);
  });
});

describe('argument mistakes', () => {
  const options = { name: { type: 'string' }, json: { type: 'boolean' } } as const;
  const mistake = (argv: string[]) => {
    try {
      parse(argv, options, 'ledgerlink thing [--name N] [--json]');
    } catch (e) {
      return e as UsageError;
    }
    throw new Error('no usage error');
  };

  it('are one line in the CLI words, with balanced quotes, and the usage as the hint', () => {
    expect(mistake(['--frob']).message).toBe('unknown option "--frob"');
    expect(mistake(['-5']).message).toBe('unknown option "-5" (a value that starts with "-" goes after "--")');
    expect(mistake(['--name']).message).toBe('--name needs a value');
    expect(mistake(['--name', '-x']).message).toBe('--name needs a value (write --name=VALUE for one that starts with "-")');
    expect(mistake(['--json=yes']).message).toBe('--json takes no value');
    for (const argv of [['--frob'], ['-5'], ['--name'], ['--name', '-x'], ['--json=yes']]) {
      const e = mistake(argv);
      expect(e.message).not.toContain('\n');
      expect(e.message.split('"').length % 2).toBe(1);
      expect(e.message).not.toContain("'");
      expect(e.hint).toBe('usage: ledgerlink thing [--name N] [--json]');
    }
  });

  it('keep the first line of a message they do not know', () => {
    let error: unknown;
    try {
      parseArgs({ args: ['--a'], options: { a: { type: 'string' } }, strict: true });
    } catch (e) {
      error = e;
    }
    expect(argumentsMessage(error)).toBe('--a needs a value');
    expect(argumentsMessage(new Error('something else\nand more'))).toBe('something else');
  });
});
