import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/main/config.js';

describe('configuration', () => {
  it('defaults to 127.0.0.1:8080, ./data, SQLite, sandbox mode, two-hour tokens', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      mode: 'sandbox',
      tokenTtlSeconds: 7200,
      maxFailedAuthentications: 5,
    });
    expect(c.publicUrl).toBe('http://127.0.0.1:8080');
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('lets flags win over the environment', () => {
    const c = loadConfig({ PORT: '9000', LEDGERLINK_DATA_DIR: '/tmp/a' }, { port: '9100', data: '/tmp/b' });
    expect(c.port).toBe(9100);
    expect(c.dataDir).toBe('/tmp/b');
  });

  it('reads alternative header names, lower-cased', () => {
    const c = loadConfig({ LEDGERLINK_APP_KEY_HEADERS: 'Acme-App-Key, X-Key', LEDGERLINK_APP_TOKEN_HEADERS: 'Acme-App-Token' });
    expect(c.appKeyHeaders).toEqual(['acme-app-key', 'x-key']);
    expect(c.appTokenHeaders).toEqual(['acme-app-token']);
  });

  it('keeps 16 MB of responses per process unless told otherwise, and none with 0', () => {
    expect(loadConfig({}).responseCacheBytes).toBe(16 * 1024 * 1024);
    expect(loadConfig({ LEDGERLINK_RESPONSE_CACHE_MB: '64' }).responseCacheBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ LEDGERLINK_RESPONSE_CACHE_MB: '0' }).responseCacheBytes).toBe(0);
  });

  it('keeps 10 PostgreSQL connections per process unless told otherwise', () => {
    expect(loadConfig({}).pgPoolSize).toBe(10);
    expect(loadConfig({ LEDGERLINK_PG_POOL_SIZE: '20' }).pgPoolSize).toBe(20);
  });

  it.each([
    [{ LEDGERLINK_TESTDRIVE_SMTP: 'sometimes' }, /LEDGERLINK_TESTDRIVE_SMTP/],
    [{ LEDGERLINK_PG_POOL_SIZE: '0' }, /LEDGERLINK_PG_POOL_SIZE/],
    [{ LEDGERLINK_RESPONSE_CACHE_MB: '-1' }, /LEDGERLINK_RESPONSE_CACHE_MB/],
    [{ LEDGERLINK_RESPONSE_CACHE_MB: 'lots' }, /LEDGERLINK_RESPONSE_CACHE_MB/],
    [{ PORT: '70000' }, /port/],
    [{ PORT: 'abc' }, /port/],
    [{ LEDGERLINK_MODE: 'prod' }, /mode/],
    [{ LEDGERLINK_APP_KEY_HEADERS: 'bad header' }, /header name/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
