import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from './args.js';

/**
 * Client mode's settings: which running service the CLI talks to and as which partner. Each comes from its flag,
 * else its environment variable, else the profile `ledgerlink login` wrote (docs/cli.md).
 */
export const CLIENT_SETTINGS = {
  url: { flag: 'url', env: 'LEDGERLINK_URL', profileKey: 'url' },
  appKey: { flag: 'app-key', env: 'LEDGERLINK_APP_KEY', profileKey: 'appKey' },
  partnerId: { flag: 'partner-id', env: 'LEDGERLINK_PARTNER_ID', profileKey: 'partnerId' },
  partnerSecret: { flag: 'partner-secret', env: 'LEDGERLINK_PARTNER_SECRET', profileKey: 'partnerSecret' },
} as const;

export type SettingName = keyof typeof CLIENT_SETTINGS;

/** The options every command that can run in client mode accepts (parseArgs form). */
export const clientOptions = {
  url: { type: 'string' },
  'app-key': { type: 'string' },
  'partner-id': { type: 'string' },
  'partner-secret': { type: 'string' },
  profile: { type: 'string' },
} as const;

export type ClientFlags = Partial<Record<keyof typeof clientOptions, string>>;

/** A profile as the file keeps it. */
export type StoredProfile = Partial<Record<SettingName, string>>;

export interface ProfileFile {
  profiles: Record<string, StoredProfile>;
}

export type SettingSource = 'flag' | 'environment' | 'profile';

export interface ResolvedSetting {
  value: string;
  source: SettingSource;
}

export type ResolvedSettings = Partial<Record<SettingName, ResolvedSetting>>;

export const DEFAULT_PROFILE = 'default';

/** Only the owner may read or write the profile file: it holds a partner secret. */
export const PROFILE_FILE_MODE = 0o600;
const PROFILE_DIR_MODE = 0o700;

/** Where profiles are kept: $LEDGERLINK_CONFIG, else $XDG_CONFIG_HOME/ledgerlink/config.json, else ~/.config/ledgerlink/config.json. */
export function profileFilePath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LEDGERLINK_CONFIG) return path.resolve(env.LEDGERLINK_CONFIG);
  // The XDG specification says a relative value is to be ignored.
  const xdg = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(xdg, 'ledgerlink', 'config.json');
}

/** The profile name in use: --profile, else $LEDGERLINK_PROFILE, else `default`. */
export function profileName(flags: ClientFlags, env: NodeJS.ProcessEnv = process.env): string {
  const name = (flags.profile ?? env.LEDGERLINK_PROFILE ?? DEFAULT_PROFILE).trim();
  if (!/^[\w.-]{1,64}$/.test(name)) throw new UsageError(`"${name}" is not a profile name`, 'use letters, digits, ".", "_" and "-" (at most 64)');
  return name;
}

/** The profiles in the file; none when it does not exist. A file that is not a profile file is a mistake to fix, not to overwrite. */
export function readProfileFile(file: string): ProfileFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${file} is not valid JSON (${(e as Error).message})`, 'fix or delete it, then run `ledgerlink login` again');
  }
  const profiles = (parsed as { profiles?: unknown } | null)?.profiles;
  if (!profiles || typeof profiles !== 'object' || Array.isArray(profiles))
    throw new UsageError(`${file} is not a Ledgerlink profile file (no "profiles" object)`, 'fix or delete it, then run `ledgerlink login` again');
  const out: Record<string, StoredProfile> = {};
  for (const [name, value] of Object.entries(profiles as Record<string, unknown>)) {
    if (!value || typeof value !== 'object') continue;
    const profile: StoredProfile = {};
    for (const key of Object.keys(CLIENT_SETTINGS) as SettingName[]) {
      const v = (value as Record<string, unknown>)[key];
      if (typeof v === 'string' && v !== '') profile[key] = v;
    }
    out[name] = profile;
  }
  return { profiles: out };
}

/** Whether group or others may use the file (never on Windows, which has no such modes). */
export function profileFileIsLoose(file: string): boolean {
  if (process.platform === 'win32') return false;
  try {
    return (fs.statSync(file).mode & 0o077) !== 0;
  } catch {
    return false;
  }
}

/**
 * Writes the whole file 0600 (its directory 0700) through a temporary file, so a reader never sees half of it. The
 * temporary name is random and opened exclusively without following a symlink, so nothing planted beside the file
 * (the directory may be shared, e.g. $LEDGERLINK_CONFIG in /tmp) can redirect the secret elsewhere.
 */
function writeProfileFile(file: string, content: ProfileFile): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PROFILE_DIR_MODE });
  const temporary = `${file}.${randomBytes(12).toString('hex')}.tmp`;
  const fd = fs.openSync(temporary, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NO_FOLLOW, PROFILE_FILE_MODE);
  try {
    try {
      // The mode given to open passes through the umask; say it again, whatever the umask.
      fs.fchmodSync(fd, PROFILE_FILE_MODE);
      fs.writeFileSync(fd, `${JSON.stringify(content, null, 2)}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
  } catch (e) {
    fs.rmSync(temporary, { force: true });
    throw e;
  }
}

// Windows has no O_NOFOLLOW (O_EXCL already refuses an existing name there, symlinks included).
const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** Saves (or replaces) one profile, keeping the others. */
export function saveProfile(file: string, name: string, profile: Required<StoredProfile>): void {
  const content = readProfileFile(file);
  content.profiles[name] = profile;
  writeProfileFile(file, content);
}

/** Removes one profile; false when there was none of that name. The file goes when no profile is left. */
export function removeProfile(file: string, name: string): boolean {
  const content = readProfileFile(file);
  if (!Object.hasOwn(content.profiles, name)) return false;
  delete content.profiles[name];
  if (Object.keys(content.profiles).length === 0) fs.rmSync(file, { force: true });
  else writeProfileFile(file, content);
  return true;
}

/** Each setting from its flag, else its environment variable, else the profile; blank values count as unset. */
export function resolveClientSettings(flags: ClientFlags, env: NodeJS.ProcessEnv, profile: StoredProfile | undefined): ResolvedSettings {
  const out: ResolvedSettings = {};
  for (const [name, where] of Object.entries(CLIENT_SETTINGS) as Array<[SettingName, (typeof CLIENT_SETTINGS)[SettingName]]>) {
    const candidates: Array<[string | undefined, SettingSource]> = [
      [flags[where.flag], 'flag'],
      [env[where.env], 'environment'],
      [profile?.[where.profileKey], 'profile'],
    ];
    for (const [value, source] of candidates) {
      if (value !== undefined && value.trim() !== '') {
        out[name] = { value: value.trim(), source };
        break;
      }
    }
  }
  return out;
}

/** Whether any client-mode option was given on the command line. */
export function hasClientFlags(flags: ClientFlags): boolean {
  return Object.keys(clientOptions).some((k) => flags[k as keyof ClientFlags] !== undefined);
}

/** Set to 1 to let the CLI send credentials over plain http to a host that is not this machine (docs/cli.md). */
export const INSECURE_HTTP_ENV = 'LEDGERLINK_INSECURE_HTTP';

/** Whether a URL host (as `URL.hostname` gives it) is this machine: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host === '::1') return true;
  // URL has already turned every IPv4 form (0x7f.1, 2130706433, ...) into dotted decimal.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * A service base URL as the CLI keeps it: http(s), no trailing slash; a usage mistake otherwise. Plain http only to
 * this machine: the CLI sends the partner secret and tokens, which anyone on the path could read; unless
 * LEDGERLINK_INSECURE_HTTP=1 in `env` (a service on a private container network, reached by name).
 */
export function serviceUrl(value: string, where: string, env: NodeJS.ProcessEnv = process.env): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${where} "${value}" is not a URL`, 'give the base URL of a running service, e.g. http://127.0.0.1:8080');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${where} must be an http or https URL (got ${url.protocol})`, 'e.g. http://127.0.0.1:8080');
  if (url.username || url.password)
    throw new UsageError(`${where} must not carry credentials`, 'give them with --app-key, --partner-id and the secret instead');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && env[INSECURE_HTTP_ENV] !== '1')
    throw new UsageError(
      `${where} must be an https URL: plain http is for this machine only (localhost, 127.0.0.0/8, ::1), since the CLI sends the partner secret and tokens (got host ${url.host})`,
      `use https://${url.host}${url.pathname === '/' ? '' : url.pathname}, or set ${INSECURE_HTTP_ENV}=1 if the network to that host is private (e.g. between containers)`,
    );
  return url.toString().replace(/\/+$/, '');
}
