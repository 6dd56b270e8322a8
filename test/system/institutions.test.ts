import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, SYSTEM_DIALECTS } from '../helpers/db.js';
import { runCli, startServe, tempDataDir } from '../helpers/cli.js';

describe.each(SYSTEM_DIALECTS)('a new %s store', (dialect) => {
  const pgDbs: TestDatabase[] = [];
  afterAll(async () => {
    for (const db of pgDbs) await db.drop();
  });

  it('gets the institution catalogue on first start and links branding at the public URL', async () => {
    const data = tempDataDir();
    const env: Record<string, string | undefined> = { DATABASE_URL: undefined };
    if (dialect === 'postgres') {
      const db = await createTestDatabase('postgres');
      pgDbs.push(db);
      // Migrated but without institutions: the first process to open the store (here the CLI) loads them.
      expect((await db.database.kysely.selectFrom('institutions').select('id').limit(1).execute()).length).toBe(0);
      env.DATABASE_URL = db.url;
    }
    const creds = JSON.parse((await runCli(['partner', 'create', '--json', '--data', data], env)).stdout);
    const server = await startServe(['--data', data, '--public-url', 'https://bank-data.example.net'], env);
    try {
      const auth = await fetch(`${server.url}/aggregation/v2/partners/authentication`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-app-key': creds.appKey },
        body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret }),
      });
      const { token } = (await auth.json()) as { token: string };
      const headers = { 'service-app-key': creds.appKey, 'service-app-token': token };
      const all = (await (await fetch(`${server.url}/institution/v2/institutions?limit=1`, { headers })).json()) as { found: number };
      expect(all.found).toBeGreaterThanOrEqual(10_000);
      const res = await fetch(`${server.url}/institution/v2/institutions?search=finbank%20oauth`, { headers });
      const body = (await res.json()) as { institutions: Array<{ id: number; oauthEnabled: boolean; branding: { logo: string } }> };
      expect(body.institutions[0]).toMatchObject({
        id: 102168,
        oauthEnabled: true,
        branding: { logo: 'https://bank-data.example.net/institution/assets/102168/logo.svg' },
      });
      const logo = await fetch(`${server.url}/institution/assets/102168/logo.svg`);
      expect(logo.status).toBe(200);
      expect(logo.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(await logo.text()).toContain('FinBank OAuth');
    } finally {
      server.kill();
      await server.exited;
    }
  });
});
