import { describe, expect, it } from 'vitest';
import { SYSTEM_DIALECTS } from '../helpers/db.js';
import { createPartner } from '../../src/modules/partners/service.js';
import { authenticateAt, startServe } from '../helpers/cli.js';
import { processHarness } from '../helpers/process-store.js';

const WRONG = 'Wrong-secret-1234';
// The rate limits are a defence of their own: lifted so that the lock-out alone is under test.
const UNLIMITED = { LEDGERLINK_AUTH_RATE_LIMIT_PER_IP: '1000000', LEDGERLINK_AUTH_RATE_LIMIT_PER_APP_KEY: '1000000', LEDGERLINK_RATE_LIMIT_PER_IP: '1000000' };

describe.each(SYSTEM_DIALECTS)('parallel guesses spread over two serving processes (%s)', (dialect) => {
  const { openStore, processes } = processHarness(dialect);

  it('API and dashboard: 300 guesses with the right secret in the middle check five wrong ones at most and never answer it differently', {
    timeout: 120_000,
  }, async () => {
    const store = await openStore(UNLIMITED);
    const urls: string[] = [];
    for (let i = 0; i < 2; i++) {
      const p = await startServe(['--data', store.data, '--no-worker'], store.env);
      processes.push(p);
      urls.push(p.url);
    }
    const codeOf = async (res: Response) => ((await res.json()) as { code?: string }).code ?? String(res.status);

    const victim = await createPartner(store.runtime, { name: 'Victim' });
    // The partner's own client signed in just before, so its right secret is remembered by both processes.
    for (const url of urls) expect((await authenticateAt(url, victim)).status).toBe(200);
    const api = await Promise.all(
      Array.from({ length: 300 }, (_, i) => authenticateAt(urls[i % 2]!, victim, i === 150 ? victim.partnerSecret : WRONG).then(codeOf)),
    );
    expect(api.filter((c) => c === '10001')).toHaveLength(5);
    expect(api.filter((c) => c !== '10001')).toEqual(Array(295).fill('10027'));
    expect(api[150]).toBe('10027');
    const row = await store.runtime.database.kysely
      .selectFrom('partners')
      .select('failed_auth_count')
      .where('id', '=', victim.partnerId)
      .executeTakeFirstOrThrow();
    expect(row.failed_auth_count).toBe(5);

    const other = await createPartner(store.runtime, { name: 'Dashboard victim' });
    const signIn = (url: string, partnerSecret: string) =>
      fetch(url + '/dashboard/api/signin', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', origin: url, 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify({ partnerId: other.partnerId, partnerSecret }),
      }).then(codeOf);
    const dashboard = await Promise.all(Array.from({ length: 300 }, (_, i) => signIn(urls[i % 2]!, i === 150 ? other.partnerSecret : WRONG)));
    expect(dashboard.filter((c) => c === '10001')).toHaveLength(5);
    expect(dashboard.filter((c) => c !== '10001')).toEqual(Array(295).fill('14105'));
    // Dashboard failures never lock the API.
    expect((await authenticateAt(urls[0]!, other)).status).toBe(200);
  });
});
