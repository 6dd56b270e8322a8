import { addOfxInstitution } from '../../../modules/institutions/service.js';
import { epochSeconds } from '../../../platform/clock.js';
import { oneLine, print, printJson } from '../../../platform/terminal-text.js';
import { dataOptions, parse, UsageError } from '../args.js';
import { withRuntime } from '../store.js';

const USAGE =
  'ledgerlink institutions add-ofx --name N --url U --fid F --org O [--brokerid B] [--appid A --appver V] [--ofx-version 102] [--json] [--data DIR]';

/** `ledgerlink institutions add-ofx`: adds an OFX Direct Connect institution, or overrides one's server. */
export async function institutions(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    argv,
    {
      ...dataOptions,
      name: { type: 'string' },
      url: { type: 'string' },
      fid: { type: 'string' },
      org: { type: 'string' },
      brokerid: { type: 'string' },
      appid: { type: 'string' },
      appver: { type: 'string' },
      'ofx-version': { type: 'string' },
    },
    USAGE,
  );
  const [action] = positionals;
  if (action !== 'add-ofx') throw new UsageError(action ? `unknown institutions action "${action}"` : 'institutions needs an action', `usage: ${USAGE}`);
  for (const name of ['name', 'url', 'fid', 'org'] as const) if (!values[name]) throw new UsageError(`institutions add-ofx needs --${name}`, `usage: ${USAGE}`);
  if ((values.appid === undefined) !== (values.appver === undefined)) throw new UsageError('--appid and --appver go together', `usage: ${USAGE}`);
  const version = values['ofx-version'];
  if (version !== undefined && !/^\d{3}$/.test(version))
    throw new UsageError(`--ofx-version must be a version such as 102 or 220, not "${version}"`, `usage: ${USAGE}`);
  const institutionId = await withRuntime(values.data, (rt) =>
    addOfxInstitution(
      rt.database,
      rt.config.mode,
      {
        name: values.name!,
        url: values.url!,
        fid: values.fid!,
        org: values.org!,
        brokerId: values.brokerid,
        appId: values.appid,
        appVer: values.appver,
        ofxVersion: version === undefined ? undefined : Number(version),
      },
      epochSeconds(rt.clock),
    ),
  );
  if (values.json) printJson({ institutionId });
  else
    print(
      `institution ${institutionId}: ${oneLine(values.name!)}, OFX server ${oneLine(values.url!)} (FID ${oneLine(values.fid!)}, ORG ${oneLine(values.org!)})`,
    );
}
