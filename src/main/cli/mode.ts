import { ServiceClient, type CredentialSources, type ServiceCredentials } from './client.js';
import { UsageError } from './args.js';
import {
  CLIENT_SETTINGS,
  type ClientFlags,
  hasClientFlags,
  profileFileIsLoose,
  profileFilePath,
  profileName,
  readProfileFile,
  resolveClientSettings,
  type ResolvedSetting,
  type SettingName,
  serviceUrl,
} from './settings.js';
import { printError } from '../../platform/terminal-text.js';

/**
 * How `logs`, `listen`, `trigger`, `sandbox`, `deliveries` and `mail` reach their data: the store itself (direct
 * mode) or a running service over HTTP (client mode), as docs/cli.md explains.
 */
export type Target = { mode: 'direct'; dataDir: string | undefined } | { mode: 'client'; client: ServiceClient };

/** Said when the secret is given on the command line. */
export const SECRET_FLAG_WARNING =
  'warning: --partner-secret shows the secret to other users of this machine (ps) and keeps it in your shell history; prefer LEDGERLINK_PARTNER_SECRET or `ledgerlink login`';

const NO_SERVICE_HINT =
  'run `ledgerlink login --url URL --app-key KEY --partner-id ID`, or set LEDGERLINK_URL (with LEDGERLINK_APP_KEY, LEDGERLINK_PARTNER_ID and LEDGERLINK_PARTNER_SECRET); or pass --data DIR to open a data store directly';

/** How a setting was given, in the words of a message. */
function where(name: SettingName, setting: ResolvedSetting, profile: string, file: string): string {
  const spec = CLIENT_SETTINGS[name];
  if (setting.source === 'flag') return `--${spec.flag}`;
  if (setting.source === 'environment') return spec.env;
  return `the ${spec.profileKey} of profile ${profile} in ${file}`;
}

/**
 * The service client from flags, environment and profile. Without a URL anywhere, or with a URL but not the
 * credentials to go with it, a usage mistake that says how to configure one. Reads the profile file only.
 */
export function clientFrom(flags: ClientFlags, env: NodeJS.ProcessEnv = process.env): ServiceClient {
  const file = profileFilePath(env);
  const profile = profileName(flags, env);
  const stored = readProfileFile(file).profiles[profile];
  if (flags.profile !== undefined && !stored)
    throw new UsageError(`no profile ${profile} in ${file}`, `save one with \`ledgerlink login --profile ${profile} ...\``);
  if (stored && profileFileIsLoose(file)) printError(`warning: ${file} may be read by other users and holds a partner secret: chmod 600 '${file}'`);
  const settings = resolveClientSettings(flags, env, stored);
  if (!settings.url) throw new UsageError('no Ledgerlink service to talk to (client mode) and no data store given (direct mode)', NO_SERVICE_HINT);
  const url = serviceUrl(settings.url.value, where('url', settings.url, profile, file), env);
  const missing = (['appKey', 'partnerId', 'partnerSecret'] as const).filter((n) => !settings[n]);
  if (missing.length > 0) {
    const names = missing.map((n) => `--${CLIENT_SETTINGS[n].flag} or ${CLIENT_SETTINGS[n].env}`);
    throw new UsageError(
      `the service at ${url} needs ${missing.map((n) => CLIENT_SETTINGS[n].flag.replace('-', ' ')).join(', ')}: none was given`,
      `give ${names.join('; ')}, or run \`ledgerlink login --url ${url} --app-key KEY --partner-id ID\` once`,
    );
  }
  const credentials: ServiceCredentials = {
    url,
    appKey: settings.appKey!.value,
    partnerId: settings.partnerId!.value,
    partnerSecret: settings.partnerSecret!.value,
  };
  if (settings.partnerSecret!.source === 'flag') printError(SECRET_FLAG_WARNING);
  const sources: CredentialSources = { profile };
  for (const n of ['appKey', 'partnerId', 'partnerSecret'] as const) sources[n] = settings[n]!.source;
  return new ServiceClient(credentials, sources);
}

/**
 * Direct mode for --data DIR, or DATABASE_URL or LEDGERLINK_DATA_DIR in the environment, unless a client option
 * (--url, --app-key, --partner-id, --partner-secret, --profile) is on the command line; client mode otherwise.
 */
export function chooseTarget(values: ClientFlags & { data?: string }, env: NodeJS.ProcessEnv = process.env): Target {
  const clientFlags = hasClientFlags(values);
  if (values.data !== undefined && clientFlags)
    throw new UsageError(
      '--data (direct mode) and the client options (--url, --app-key, --partner-id, --partner-secret, --profile) do not go together',
      'give one or the other',
    );
  if (values.data !== undefined) return { mode: 'direct', dataDir: values.data };
  if (!clientFlags && (env.DATABASE_URL || env.LEDGERLINK_DATA_DIR)) return { mode: 'direct', dataDir: undefined };
  return { mode: 'client', client: clientFrom(values, env) };
}

/** In client mode the credentials decide the partner: a --partner naming another one is a mistake, not a switch. */
export function checkPartnerOption(client: ServiceClient, partner: string | undefined): void {
  if (partner !== undefined && partner.trim() !== client.partnerId)
    throw new UsageError(
      `--partner ${partner.trim()} is not the partner of the service credentials (${client.partnerId})`,
      'leave out --partner in client mode, or use the credentials of that partner (--profile NAME, --partner-id ...)',
    );
}
