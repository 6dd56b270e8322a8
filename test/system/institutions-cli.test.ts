import { describe, expect, it } from 'vitest';
import { runCli, tempDataDir } from '../helpers/cli.js';

describe('ledgerlink institutions add-ofx', () => {
  it('adds an OFX institution (plain http to a local server in sandbox mode only), overrides it by name, and explains mistakes', async () => {
    const data = tempDataDir();
    const env = { DATABASE_URL: undefined };
    // Only partner create and seed start a store.
    expect((await runCli(['partner', 'create', '--data', data], env)).code).toBe(0);
    const added = await runCli(
      [
        'institutions',
        'add-ofx',
        '--name',
        'Harbor Test Credit Union',
        '--url',
        'http://127.0.0.1:9999/ofx',
        '--fid',
        '1234',
        '--org',
        'HTCU',
        '--json',
        '--data',
        data,
      ],
      env,
    );
    expect(added.stderr).toBe(`store: sqlite ${data}/ledgerlink.sqlite\n`);
    expect(added.code).toBe(0);
    const { institutionId } = JSON.parse(added.stdout) as { institutionId: number };
    expect(institutionId).toBeGreaterThanOrEqual(700_000);
    const again = await runCli(
      [
        'institutions',
        'add-ofx',
        '--name',
        'Harbor Test Credit Union',
        '--url',
        'https://ofx.htcu.example/',
        '--fid',
        '1',
        '--org',
        'H',
        '--appid',
        'QWIN',
        '--appver',
        '2800',
        '--data',
        data,
      ],
      env,
    );
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^institution ${institutionId}: Harbor Test Credit Union, OFX server https://ofx\\.htcu\\.example/`));

    const production = await runCli(
      ['institutions', 'add-ofx', '--name', 'Plain Bank', '--url', 'http://ofx.plain.example/', '--fid', '1', '--org', 'P', '--data', data],
      { ...env, LEDGERLINK_MODE: 'production' },
    );
    expect(production.code).toBe(1);
    expect(production.stderr).toMatch(/only https addresses are allowed in production mode/);
    const missing = await runCli(['institutions', 'add-ofx', '--name', 'X', '--data', data], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: institutions add-ofx needs --url\nhint: usage: ledgerlink institutions add-ofx/);
    const lonely = await runCli(
      ['institutions', 'add-ofx', '--name', 'X', '--url', 'https://x.example/', '--fid', '1', '--org', 'X', '--appid', 'QWIN', '--data', data],
      env,
    );
    expect(lonely.code).toBe(2);
    expect(lonely.stderr).toMatch(/--appid and --appver go together/);
  }, 120_000);
});
