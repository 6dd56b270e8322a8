import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe, tempDataDir, type ServerProcess } from '../helpers/cli.js';

function handshake(port: number, ca: string, version: tls.SecureVersion): Promise<string> {
  return new Promise((resolve) => {
    const socket = tls.connect(
      { host: '127.0.0.1', port, ca, servername: 'localhost', minVersion: version, maxVersion: version, ciphers: 'DEFAULT@SECLEVEL=0' },
      () => {
        resolve(`ok ${socket.getProtocol()}`);
        socket.end();
      },
    );
    socket.on('error', (e) => resolve(`refused: ${e.message}`));
  });
}

describe('native HTTPS', () => {
  let server: ServerProcess;
  let ca: string;
  let port: number;

  beforeAll(async () => {
    const data = tempDataDir();
    const dir = path.join(data, 'tls');
    const generated = await runCli(['cert', 'generate', '--out', dir]);
    expect(generated.code).toBe(0);
    ca = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
    expect((fs.statSync(path.join(dir, 'key.pem')).mode & 0o777).toString(8)).toBe('600');
    server = await startServe(['--data', data, '--tls-cert', path.join(dir, 'cert.pem'), '--tls-key', path.join(dir, 'key.pem')], { DATABASE_URL: undefined });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    server.kill();
    await server.exited;
  });

  it('listens on https and sends HSTS', async () => {
    expect(server.url).toMatch(/^https:\/\//);
    const res = await new Promise<{ status: number; hsts: string | undefined }>((resolve, reject) => {
      https
        .get({ host: '127.0.0.1', port, path: '/health', ca, servername: 'localhost' }, (r) => {
          r.resume();
          resolve({ status: r.statusCode!, hsts: r.headers['strict-transport-security'] as string | undefined });
        })
        .on('error', reject);
    });
    expect(res).toEqual({ status: 200, hsts: 'max-age=31536000; includeSubDomains' });
  });

  it('completes TLS 1.2 and 1.3 handshakes', async () => {
    expect(await handshake(port, ca, 'TLSv1.2')).toBe('ok TLSv1.2');
    expect(await handshake(port, ca, 'TLSv1.3')).toBe('ok TLSv1.3');
  });

  it.each(['TLSv1', 'TLSv1.1'] as const)('refuses %s at the handshake', async (version) => {
    expect(await handshake(port, ca, version)).toMatch(/^refused/);
  });
});
