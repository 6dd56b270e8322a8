import { describe, expect, it } from 'vitest';
import { runCli, tempDataDir } from '../helpers/cli.js';

describe('ledgerlink experience', () => {
  it('sets an experience that Connect links can then name, and refuses bad input with a hint', async () => {
    const data = tempDataDir();
    const env = { DATABASE_URL: undefined };
    const creds = JSON.parse((await runCli(['partner', 'create', '--json', '--data', data], env)).stdout);
    const set = await runCli(
      [
        'experience',
        'set',
        creds.partnerId,
        'gold',
        '--app-name',
        'Gold Lending',
        '--color',
        '#AA7700',
        '--logo',
        'https://gold.example/logo.png',
        '--json',
        '--data',
        data,
      ],
      env,
    );
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ name: 'gold', appName: 'Gold Lending', logoUrl: 'https://gold.example/logo.png', primaryColor: '#aa7700' });
    const show = await runCli(['experience', 'show', creds.partnerId, 'default', '--data', data], env);
    expect(show.stdout).toMatch(/^experience default: /);
    const bad = await runCli(['experience', 'set', creds.partnerId, 'gold', '--app-name', 'Gold', '--color', 'gold', '--data', data], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/colour/);
    const unknown = await runCli(['experience', 'show', creds.partnerId, 'silver', '--data', data], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/silver/);
  }, 120_000);
});
