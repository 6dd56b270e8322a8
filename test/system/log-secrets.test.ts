import { describe, expect, it } from 'vitest';
import { runCli, startServe, tempDataDir } from '../helpers/cli.js';

const AUTH = '/aggregation/v2/partners/authentication';

describe('logs of a full run', () => {
  it('never contain a partner secret, app key, token or their hashes, even at trace level', async () => {
    const data = tempDataDir();
    const env = { DATABASE_URL: undefined, LEDGERLINK_LOG_LEVEL: 'trace' };
    const created = await runCli(['partner', 'create', '--json', '--data', data], env);
    const creds = JSON.parse(created.stdout);
    const server = await startServe(['--data', data, '--log-level', 'trace'], env);
    let logs = '';
    server.child.stdout!.on('data', (d) => (logs += d));
    server.child.stderr!.on('data', (d) => (logs += d));
    const secrets: string[] = [creds.partnerSecret, creds.appKey];
    try {
      const call = (path: string, init: RequestInit = {}) => fetch(server.url + path, init);
      const json = { 'content-type': 'application/json', 'service-app-key': creds.appKey };
      const auth = (await (
        await call(AUTH, { method: 'POST', headers: json, body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret }) })
      ).json()) as { token: string };
      secrets.push(auth.token);
      const xml = await (
        await call(AUTH, {
          method: 'POST',
          headers: { ...json, 'content-type': 'application/xml', accept: 'application/xml' },
          body: `<credentials><partnerId>${creds.partnerId}</partnerId><partnerSecret>${creds.partnerSecret}</partnerSecret></credentials>`,
        })
      ).text();
      secrets.push(/<token>(\w+)<\/token>/.exec(xml)![1]!);
      const headers = { 'service-app-key': creds.appKey, 'service-app-token': auth.token };
      // Failures log more than successes.
      await call(AUTH, { method: 'POST', headers: json, body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: `${creds.partnerSecret}x` }) });
      await call(AUTH, { method: 'POST', headers: json, body: `{"partnerId":"${creds.partnerId}","partnerSecret":"${creds.partnerSecret}"` });
      await call('/aggregation/v1/partners/me', { headers });
      await call('/aggregation/v1/partners/me', { headers: { ...headers, 'service-app-token': `${auth.token}x` } });
      await call('/aggregation/v2/customers/testing', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'log_scan_user', firstName: 'Log' }),
      });
      const newSecret = 'Changed-Secret-2026-x';
      await call(AUTH, {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret, newPartnerSecret: newSecret }),
      });
      secrets.push(newSecret);
      const rotated = JSON.parse((await runCli(['partner', 'rotate-key', creds.partnerId, '--json', '--data', data], env)).stdout);
      secrets.push(rotated.appKey);
      await call('/aggregation/v1/partners/me', { headers: { ...headers, 'service-app-key': rotated.appKey } });
    } finally {
      server.kill();
      await server.exited;
    }
    const { createHash } = await import('node:crypto');
    expect(logs.length).toBeGreaterThan(1000);
    // The scan covered request logs and error logs, not just start-up lines.
    expect(logs).toContain('request completed');
    expect(logs).toContain('"code":"10001"');
    for (const secret of secrets) {
      expect(logs, 'a credential appeared in the logs').not.toContain(secret);
      expect(logs, 'a credential hash appeared in the logs').not.toContain(createHash('sha256').update(secret).digest('hex'));
    }
  }, 60_000);
});
