import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig } from '../config.js';
import { openRuntime, type Runtime } from '../runtime.js';

/** A mistake in how a command was called: printed as one line plus a hint, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs with errors turned into UsageError. */
export function parse<T extends Options>(argv: string[], options: T, usage: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0] ?? 'invalid arguments', `usage: ${usage}`);
  }
}

/** Options every command that touches the database accepts. */
export const dataOptions = {
  data: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

/** Opens the runtime for a one-off command on the store in `dataDir` (or DATABASE_URL), runs `fn`, closes. */
export async function withRuntime<T>(dataDir: string | undefined, fn: (runtime: Runtime) => Promise<T>): Promise<T> {
  const runtime = await openRuntime(loadConfig(process.env, { data: dataDir }));
  try {
    return await fn(runtime);
  } finally {
    await runtime.database.close();
  }
}

/** A positive integer option, or a usage error naming it. */
export function positiveInteger(name: string, value: string | undefined, usage: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive integer (got "${value}")`, `usage: ${usage}`);
  return n;
}
