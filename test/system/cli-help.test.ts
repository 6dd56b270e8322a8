import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('ledgerlink --help and --version', () => {
  it('print the version and usages on stdout with exit code 0; help for an unknown command is a usage mistake', async () => {
    const version = await runCli(['--version']);
    expect(version).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });

    const sandbox = await runCli(['help', 'sandbox']);
    expect(sandbox.code).toBe(0);
    expect(sandbox.stdout).toMatch(/^usage: ledgerlink sandbox clock .*\n\noptions:\n[\s\S]*\n {2}--days VALUE\n/);
    expect(sandbox.stderr).toBe('');

    const partner = await runCli(['partner', '--help']);
    expect(partner.code).toBe(0);
    expect(partner.stdout).toMatch(/^usage: ledgerlink partner create /);
    expect(partner.stderr).toBe('');

    const addOfx = await runCli(['institutions', 'add-ofx', '--help']);
    expect(addOfx.code).toBe(0);
    expect(addOfx.stdout).toMatch(/^usage: ledgerlink institutions add-ofx [\s\S]*\n {2}--ofx-version VALUE\n/);
    expect(addOfx.stderr).toBe('');

    const unknown = await runCli(['help', 'nope']);
    expect(unknown).toEqual({ code: 2, stdout: '', stderr: 'error: unknown command "nope"\nhint: run `ledgerlink --help` for the list\n' });
  });
});
