import { describe, expect, it } from 'vitest';
import { startProcess, tempDataDir } from '../helpers/cli.js';
import { createTestDatabase, SYSTEM_DIALECTS } from '../helpers/db.js';
import path from 'node:path';

const NPM_CLI = path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');

describe.each(SYSTEM_DIALECTS)('npm start on %s', (dialect) => {
  it('builds, serves, and prints first-partner credentials that authenticate', async () => {
    const data = tempDataDir();
    const db = dialect === 'postgres' ? await createTestDatabase('postgres') : undefined;
    const server = await startProcess(
      [NPM_CLI, 'start', '--silent', '--', '--port', '0', '--data', data, '--log-level', 'warn'],
      { DATABASE_URL: db?.url, npm_config_loglevel: 'silent' },
      120_000,
      undefined,
      { group: true },
    );
    try {
      const out = server.stdout();
      const partnerId = /partnerId\s+(\S+)/.exec(out)?.[1];
      const partnerSecret = /partnerSecret\s+(\S+)/.exec(out)?.[1];
      const appKey = /appKey\s+(\S+)/.exec(out)?.[1];
      expect(partnerId && partnerSecret && appKey).toBeTruthy();
      const res = await fetch(server.url + '/aggregation/v2/partners/authentication', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-app-key': appKey! },
        body: JSON.stringify({ partnerId, partnerSecret }),
      });
      expect(res.status).toBe(200);
      expect(out).toContain(`database: ${dialect}`);
    } finally {
      // SIGTERM to npm's whole process group: npm does not always pass it on to the service it started (the
      // service's own exit code is tested in cli.test.ts). The service must then stop answering.
      server.kill('SIGTERM');
      await server.exited;
      let stopped = false;
      for (let i = 0; i < 100 && !stopped; i++) {
        stopped = await fetch(server.url + '/health').then(
          () => false,
          () => true,
        );
        if (!stopped) await new Promise((r) => setTimeout(r, 100));
      }
      expect(stopped).toBe(true);
      await db?.drop();
    }
  }, 180_000);
});
