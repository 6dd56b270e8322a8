import { ServiceAnswer, ServiceClient } from '../client.js';
import { HelpRequested, parse, UsageError } from '../args.js';
import { SECRET_FLAG_WARNING } from '../mode.js';
import {
  CLIENT_SETTINGS,
  clientOptions,
  profileFilePath,
  profileName,
  readProfileFile,
  removeProfile,
  resolveClientSettings,
  saveProfile,
  serviceUrl,
} from '../settings.js';
import { print, printError } from '../../../platform/terminal-text.js';

const USAGE = 'ledgerlink login --url URL --app-key KEY --partner-id ID [--profile NAME]   (the secret from LEDGERLINK_PARTNER_SECRET, a prompt, or stdin)';
const LOGOUT_USAGE = 'ledgerlink logout [--profile NAME]';

/** Said after the options in `login --help`. */
const NOTES = [
  'The partner secret comes from LEDGERLINK_PARTNER_SECRET, else it is asked for (not shown as typed) on a terminal,',
  'else read from the first line of stdin. --partner-secret works too, but shows the secret to other users (ps) and',
  'keeps it in the shell history. Each setting may also come from LEDGERLINK_URL, LEDGERLINK_APP_KEY and',
  'LEDGERLINK_PARTNER_ID, or from the profile being replaced. The credentials are checked with the service (a token',
  'request) before the profile is saved, in $LEDGERLINK_CONFIG, $XDG_CONFIG_HOME/ledgerlink/config.json or',
  '~/.config/ledgerlink/config.json, readable by you only.',
].join('\n');

/** Reads a line from the terminal without showing it; Ctrl-C ends the command. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    process.stderr.write(question);
    input.setRawMode(true);
    input.resume();
    input.setEncoding('utf8');
    let typed = '';
    const done = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const c of chunk) {
        if (c === '\r' || c === '\n' || c === '\u0004') return done();
        if (c === '\u0003') return done(new UsageError('login interrupted', 'nothing was saved'));
        if (c === '\u007f' || c === '\b') typed = typed.slice(0, -1);
        else if (c >= ' ') typed += c;
      }
    };
    input.on('data', onData);
  });
}

/** The first line of stdin (a pipe or a file). */
async function firstLineOfStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/** The partner secret: --partner-secret, LEDGERLINK_PARTNER_SECRET, a hidden prompt on a terminal, or stdin. */
async function partnerSecret(flag: string | undefined): Promise<string> {
  if (flag !== undefined) {
    printError(SECRET_FLAG_WARNING);
    return flag.trim();
  }
  const fromEnv = process.env[CLIENT_SETTINGS.partnerSecret.env]?.trim();
  if (fromEnv) return fromEnv;
  return (process.stdin.isTTY ? await promptHidden('Partner secret: ') : await firstLineOfStdin()).trim();
}

/**
 * `ledgerlink login`: checks a partner's credentials with a running service and saves them as a profile, which
 * the commands that run in client mode (logs, listen, trigger, sandbox, deliveries, mail) use from then on.
 */
export async function login(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parse<typeof clientOptions>>;
  try {
    parsed = parse(argv, clientOptions, USAGE);
  } catch (e) {
    throw e instanceof HelpRequested ? new HelpRequested(`${e.text}\n\n${NOTES}`) : e;
  }
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new UsageError(`login takes no arguments (got "${positionals[0]}")`, `usage: ${USAGE}`);
  const file = profileFilePath();
  const profile = profileName(values);
  const stored = readProfileFile(file).profiles[profile];
  // The secret is asked for below, not taken from the profile being replaced.
  const settings = resolveClientSettings(
    { ...values, 'partner-secret': undefined },
    { ...process.env, [CLIENT_SETTINGS.partnerSecret.env]: undefined },
    stored,
  );
  for (const name of ['url', 'appKey', 'partnerId'] as const) {
    if (!settings[name]) throw new UsageError(`login needs --${CLIENT_SETTINGS[name].flag} (or ${CLIENT_SETTINGS[name].env})`, `usage: ${USAGE}`);
  }
  const url = serviceUrl(
    settings.url!.value,
    settings.url!.source === 'flag' ? '--url' : settings.url!.source === 'environment' ? 'LEDGERLINK_URL' : `the url of profile ${profile}`,
  );
  const secret = await partnerSecret(values['partner-secret']);
  if (!secret)
    throw new UsageError(
      'login needs the partner secret',
      'set LEDGERLINK_PARTNER_SECRET, type it when asked (on a terminal), or give it on the first line of stdin',
    );
  const credentials = { url, appKey: settings.appKey!.value, partnerId: settings.partnerId!.value, partnerSecret: secret };
  try {
    await new ServiceClient(credentials).authenticate();
  } catch (e) {
    // Nothing is saved: the hint is about what was just given, not about a profile.
    if (e instanceof ServiceAnswer && (e.status === 401 || e.status === 403))
      throw new ServiceAnswer(e.status, e.code, e.message, 'check the app key, partner id and secret (the dashboard shows the first two); nothing was saved');
    throw e;
  }
  saveProfile(file, profile, credentials);
  print(`Logged in to ${url} as partner ${credentials.partnerId}: saved as profile ${profile} in ${file} (readable by you only).`);
}

/** `ledgerlink logout`: removes a saved profile (the credentials stay valid at the service). */
export async function logout(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { profile: { type: 'string' } }, LOGOUT_USAGE);
  if (positionals.length > 0) throw new UsageError(`logout takes no arguments (got "${positionals[0]}")`, `usage: ${LOGOUT_USAGE}`);
  const file = profileFilePath();
  const profile = profileName(values);
  print(removeProfile(file, profile) ? `Removed profile ${profile} from ${file}.` : `No profile ${profile} in ${file}: nothing to remove.`);
}
