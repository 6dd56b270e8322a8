import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/main/cli/args.js';
import { chooseTarget, clientFrom } from '../../src/main/cli/mode.js';
import {
  profileFileIsLoose,
  profileFilePath,
  profileName,
  readProfileFile,
  removeProfile,
  resolveClientSettings,
  saveProfile,
  serviceUrl,
} from '../../src/main/cli/settings.js';
import { shownDatabaseUrl, storeLabel } from '../../src/main/cli/store.js';
import { acceptsJson } from '../../src/http/cli-api/accept.js';

const PROFILE = { url: 'https://profile.example:8080', appKey: 'profile-key', partnerId: '1111111111111', partnerSecret: 'profile-secret' };

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-settings-'));
}

/** What a function throws, as a UsageError. */
function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error('no usage error');
}

describe('client settings', () => {
  it('take each setting from its flag, else its environment variable, else the profile', () => {
    const env = { LEDGERLINK_URL: 'http://env.example', LEDGERLINK_APP_KEY: 'env-key' };
    const resolved = resolveClientSettings({ url: 'http://flag.example' }, env, PROFILE);
    expect(resolved).toEqual({
      url: { value: 'http://flag.example', source: 'flag' },
      appKey: { value: 'env-key', source: 'environment' },
      partnerId: { value: PROFILE.partnerId, source: 'profile' },
      partnerSecret: { value: PROFILE.partnerSecret, source: 'profile' },
    });
  });

  it('read blank values as unset, and leave out what is set nowhere', () => {
    const resolved = resolveClientSettings({ url: '  ' }, { LEDGERLINK_URL: '', LEDGERLINK_PARTNER_SECRET: ' s3cret ' }, undefined);
    expect(resolved).toEqual({ partnerSecret: { value: 's3cret', source: 'environment' } });
  });

  it('live in $LEDGERLINK_CONFIG, else $XDG_CONFIG_HOME/ledgerlink, else ~/.config/ledgerlink', () => {
    expect(profileFilePath({ LEDGERLINK_CONFIG: '/etc/ll.json', XDG_CONFIG_HOME: '/xdg' })).toBe('/etc/ll.json');
    expect(profileFilePath({ XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/ledgerlink/config.json');
    // A relative XDG_CONFIG_HOME is to be ignored.
    expect(profileFilePath({ XDG_CONFIG_HOME: 'relative' })).toBe(path.join(os.homedir(), '.config', 'ledgerlink', 'config.json'));
    expect(profileFilePath({})).toBe(path.join(os.homedir(), '.config', 'ledgerlink', 'config.json'));
  });

  it('name the profile by --profile, else $LEDGERLINK_PROFILE, else default, and refuse odd names', () => {
    expect(profileName({ profile: 'staging' }, { LEDGERLINK_PROFILE: 'other' })).toBe('staging');
    expect(profileName({}, { LEDGERLINK_PROFILE: 'other' })).toBe('other');
    expect(profileName({}, {})).toBe('default');
    expect(usageError(() => profileName({ profile: '../x' }, {})).message).toBe('"../x" is not a profile name');
  });

  it('need an http or https URL without credentials in it', () => {
    expect(serviceUrl('http://127.0.0.1:8080/', '--url')).toBe('http://127.0.0.1:8080');
    expect(usageError(() => serviceUrl('localhost:8080', '--url')).message).toBe('--url must be an http or https URL (got localhost:)');
    expect(usageError(() => serviceUrl('nope', 'LEDGERLINK_URL')).message).toBe('LEDGERLINK_URL "nope" is not a URL');
    expect(usageError(() => serviceUrl('https://u:p@host', '--url')).message).toBe('--url must not carry credentials');
  });

  it('refuse plain http to any host but this machine, unless LEDGERLINK_INSECURE_HTTP=1', () => {
    for (const local of ['http://localhost:8080', 'http://LOCALHOST', 'http://127.0.0.1:8080', 'http://127.8.9.10', 'http://[::1]:8080', 'http://0x7f.1/'])
      expect(serviceUrl(local, '--url', {})).toMatch(/^http:\/\/(localhost|127\.|\[::1\])/);
    for (const remote of [
      'http://ledgerlink.example:8080',
      'http://10.0.0.5:8080',
      'http://128.0.0.1',
      'http://localhost.evil.example',
      'http://127.0.0.1.evil.example',
      'http://[::ffff:10.0.0.1]',
      'http://ledgerlink:8080/base',
    ]) {
      const e = usageError(() => serviceUrl(remote, 'LEDGERLINK_URL', {}));
      expect(e.message).toMatch(/^LEDGERLINK_URL must be an https URL: plain http is for this machine only \(localhost, 127\.0\.0\.0\/8, ::1\)/);
      expect(e.hint).toMatch(/LEDGERLINK_INSECURE_HTTP=1/);
    }
    expect(usageError(() => serviceUrl('http://ledgerlink:8080/base/', '--url', {})).hint).toBe(
      'use https://ledgerlink:8080/base/, or set LEDGERLINK_INSECURE_HTTP=1 if the network to that host is private (e.g. between containers)',
    );
    expect(serviceUrl('https://ledgerlink.example:8443/', '--url', {})).toBe('https://ledgerlink.example:8443');
    // The opt-out takes exactly 1.
    expect(serviceUrl('http://ledgerlink:8080', '--url', { LEDGERLINK_INSECURE_HTTP: '1' })).toBe('http://ledgerlink:8080');
    expect(() => serviceUrl('http://ledgerlink:8080', '--url', { LEDGERLINK_INSECURE_HTTP: 'yes' })).toThrow(UsageError);
  });

  it('are checked the same way in client mode, where the opt-out comes from its environment', () => {
    const env = { LEDGERLINK_CONFIG: path.join(tempDir(), 'config.json'), LEDGERLINK_APP_KEY: 'k', LEDGERLINK_PARTNER_ID: '1', LEDGERLINK_PARTNER_SECRET: 's' };
    expect(usageError(() => clientFrom({ url: 'http://svc.example' }, env)).message).toMatch(/^--url must be an https URL/);
    expect(clientFrom({ url: 'http://svc.example' }, { ...env, LEDGERLINK_INSECURE_HTTP: '1' }).url).toBe('http://svc.example');
  });
});

describe('the profile file', () => {
  it('is written readable by its owner only (0600, in a 0700 directory), keeping the other profiles', () => {
    const file = path.join(tempDir(), 'nested', 'config.json');
    saveProfile(file, 'default', PROFILE);
    saveProfile(file, 'staging', { ...PROFILE, url: 'https://staging.example' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(profileFileIsLoose(file)).toBe(false);
    expect(readProfileFile(file).profiles).toEqual({ default: PROFILE, staging: { ...PROFILE, url: 'https://staging.example' } });
    // Replacing a profile keeps the mode, whatever the file's mode was.
    fs.chmodSync(file, 0o644);
    expect(profileFileIsLoose(file)).toBe(true);
    saveProfile(file, 'default', { ...PROFILE, partnerSecret: 'new-secret' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readProfileFile(file).profiles.default?.partnerSecret).toBe('new-secret');
  });

  it('is written through a random temporary name, opened without following a planted symlink', () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    const elsewhere = path.join(dir, 'elsewhere.json');
    fs.writeFileSync(elsewhere, 'untouched');
    // Someone who can write the directory plants symlinks at every name the old scheme would have used.
    for (let pid = Math.max(1, process.pid - 50); pid <= process.pid + 50; pid++) fs.symlinkSync(elsewhere, `${file}.${pid}.tmp`);
    const planted = fs.readdirSync(dir).sort();
    saveProfile(file, 'default', PROFILE);
    saveProfile(file, 'staging', PROFILE);
    expect(fs.readFileSync(elsewhere, 'utf8')).toBe('untouched');
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(Object.keys(readProfileFile(file).profiles)).toEqual(['default', 'staging']);
    // Nothing left behind but the file itself.
    expect(fs.readdirSync(dir).sort()).toEqual([...planted, 'config.json'].sort());
  });

  it('is written 0600 even under a permissive umask', () => {
    const file = path.join(tempDir(), 'config.json');
    const umask = process.umask(0);
    try {
      saveProfile(file, 'default', PROFILE);
    } finally {
      process.umask(umask);
    }
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('loses a profile on logout, and goes with the last one', () => {
    const file = path.join(tempDir(), 'config.json');
    saveProfile(file, 'default', PROFILE);
    saveProfile(file, 'staging', PROFILE);
    expect(removeProfile(file, 'staging')).toBe(true);
    expect(removeProfile(file, 'staging')).toBe(false);
    expect(Object.keys(readProfileFile(file).profiles)).toEqual(['default']);
    expect(removeProfile(file, 'default')).toBe(true);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('that is missing holds no profile; one that is not a profile file is a mistake to fix', () => {
    const dir = tempDir();
    expect(readProfileFile(path.join(dir, 'none.json'))).toEqual({ profiles: {} });
    fs.writeFileSync(path.join(dir, 'broken.json'), '{"profiles":');
    expect(usageError(() => readProfileFile(path.join(dir, 'broken.json'))).message).toMatch(/broken\.json is not valid JSON/);
    fs.writeFileSync(path.join(dir, 'other.json'), '{"name":"x"}');
    expect(usageError(() => readProfileFile(path.join(dir, 'other.json'))).message).toMatch(/is not a Ledgerlink profile file/);
  });
});

describe('choosing direct or client mode', () => {
  const withProfile = () => {
    const file = path.join(tempDir(), 'config.json');
    saveProfile(file, 'default', PROFILE);
    return { LEDGERLINK_CONFIG: file };
  };

  it('opens the store for --data, DATABASE_URL or LEDGERLINK_DATA_DIR, unless a client option is given', () => {
    const env = withProfile();
    expect(chooseTarget({ data: '/srv/data' }, env)).toEqual({ mode: 'direct', dataDir: '/srv/data' });
    expect(chooseTarget({}, { ...env, DATABASE_URL: 'postgres://db/x' })).toEqual({ mode: 'direct', dataDir: undefined });
    expect(chooseTarget({}, { ...env, LEDGERLINK_DATA_DIR: '/srv/data' })).toEqual({ mode: 'direct', dataDir: undefined });
    const client = chooseTarget({ url: 'https://flag.example' }, { ...env, DATABASE_URL: 'postgres://db/x' });
    expect(client.mode === 'client' && client.client.credentials).toEqual({ ...PROFILE, url: 'https://flag.example' });
    expect(usageError(() => chooseTarget({ data: '/srv/data', profile: 'default' }, env)).message).toMatch(/do not go together/);
  });

  it('talks to the profile service otherwise', () => {
    const target = chooseTarget({}, withProfile());
    expect(target.mode === 'client' && target.client.credentials).toEqual(PROFILE);
  });

  it('says how to configure a service when none is, and what is missing when only part is', () => {
    const empty = { LEDGERLINK_CONFIG: path.join(tempDir(), 'config.json') };
    const none = usageError(() => clientFrom({}, empty));
    expect(none.message).toBe('no Ledgerlink service to talk to (client mode) and no data store given (direct mode)');
    expect(none.hint).toMatch(/ledgerlink login --url URL .*LEDGERLINK_URL.*--data DIR/);
    const partial = usageError(() => clientFrom({ url: 'https://svc.example', 'app-key': 'k' }, empty));
    expect(partial.message).toBe('the service at https://svc.example needs partner id, partner secret: none was given');
    expect(partial.hint).toMatch(/--partner-id or LEDGERLINK_PARTNER_ID; --partner-secret or LEDGERLINK_PARTNER_SECRET/);
    expect(usageError(() => clientFrom({ profile: 'staging' }, empty)).message).toMatch(/^no profile staging in /);
  });
});

describe('what the CLI shows of a store', () => {
  it('names the SQLite file, or the PostgreSQL URL without its password', () => {
    expect(storeLabel({ dataDir: '/srv/data', databaseUrl: undefined })).toBe('sqlite /srv/data/ledgerlink.sqlite');
    expect(storeLabel({ dataDir: '/srv/data', databaseUrl: 'postgres://app:s3cret@db.example:5432/ledgerlink?sslpassword=x&options=y' })).toBe(
      'postgres postgres://app@db.example:5432/ledgerlink?options=y',
    );
    expect(shownDatabaseUrl('not a url')).not.toContain('not a url');
  });
});

describe('the Accept rule of the CLI API', () => {
  it('takes JSON, any application type or anything, and nothing else', () => {
    for (const accept of [undefined, '', 'application/json', '*/*', 'application/*', 'application/xml, application/json;q=0.5'])
      expect(acceptsJson(accept)).toBe(true);
    for (const accept of ['application/xml', 'text/html', 'application/json;q=0', 'application/json;q=abc']) expect(acceptsJson(accept)).toBe(false);
  });
});
