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
    const gold = JSON.parse(set.stdout);
    expect(gold).toEqual({ id: gold.id, name: 'gold', appName: 'Gold Lending', logoUrl: 'https://gold.example/logo.png', primaryColor: '#aa7700' });
    // The id Get Experience IDs answers and a Connect link's `experience` may name.
    expect(gold.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const show = await runCli(['experience', 'show', creds.partnerId, 'default', '--data', data], env);
    expect(show.stdout).toMatch(/^experience default \(id [0-9a-f-]{36}\): /);
    const bad = await runCli(['experience', 'set', creds.partnerId, 'gold', '--app-name', 'Gold', '--color', 'gold', '--data', data], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/colour/);
    const unknown = await runCli(['experience', 'show', creds.partnerId, 'silver', '--data', data], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/silver/);
  }, 120_000);
});
