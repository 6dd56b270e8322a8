import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startServe, tempDataDir } from '../helpers/cli.js';

const AUTH = '/aggregation/v2/partners/authentication';

// The request log of a served SQLite data directory is written by a thread into a file of its own: what reaches the
// disk there, WAL included, holds the partner's bodies with every credential redacted.
describe("the request log's file of a running server", () => {
  it('holds the bodies of authentication and a secret change, never a secret, app key or token', async () => {
    const data = tempDataDir();
    const env = { DATABASE_URL: undefined };
    const creds = JSON.parse((await runCli(['partner', 'create', '--json', '--data', data], env)).stdout);
    const newSecret = 'Disk-scan-secret-2026';
    const secrets: string[] = [creds.partnerSecret, creds.appKey, newSecret];
    const server = await startServe(['--data', data], env);
    try {
      const json = { 'content-type': 'application/json', 'service-app-key': creds.appKey };
      const authenticated = await fetch(server.url + AUTH, {
        method: 'POST',
        headers: { ...json, 'x-request-id': 'disk-scan-auth' },
        body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret }),
      });
      expect(authenticated.headers.get('x-request-id')).toBe('disk-scan-auth');
      const token = ((await authenticated.json()) as { token: string }).token;
      secrets.push(token);
      await fetch(server.url + AUTH, { method: 'POST', headers: json, body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: 'Wrong-secret-0' }) });
      await fetch(`${server.url}/aggregation/v1/partners/me`, { headers: { 'service-app-key': creds.appKey, 'service-app-token': `${token}x` } });
      const changed = await fetch(server.url + AUTH, {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret, newPartnerSecret: newSecret }),
      });
      expect(changed.status).toBe(204);
    } finally {
      // SIGTERM: the server writes what its log holds before it exits.
      server.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
    const files = fs.readdirSync(data).filter((f) => f.startsWith('ledgerlink.request-log.sqlite'));
    expect(files.length).toBeGreaterThan(0);
    const disk = Buffer.concat(files.map((f) => fs.readFileSync(path.join(data, f)))).toString('latin1');
    // The entries and their redacted bodies are there...
    expect(disk).toContain('disk-scan-auth');
    expect(disk).toContain('"partnerSecret":"[redacted]"');
    expect(disk).toContain('"newPartnerSecret":"[redacted]"');
    expect(disk).toContain('{"token":"[redacted]"}');
    expect(disk).toContain('service-app-key: [redacted]');
    // ...and no credential, nor its hash.
    for (const secret of secrets) {
      expect(disk, 'a credential reached the request log file').not.toContain(secret);
      expect(disk, "a credential's hash reached the request log file").not.toContain(createHash('sha256').update(secret).digest('hex'));
    }
  }, 60_000);
});
