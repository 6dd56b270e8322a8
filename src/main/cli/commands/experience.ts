import { resolveExperience, saveExperience } from '../../../modules/connect/experiences.service.js';
import { epochSeconds } from '../../../platform/clock.js';
import { dataOptions, parse, UsageError } from '../args.js';
import { withRuntime } from '../store.js';
import { oneLine, print, printJson } from '../../../platform/terminal-text.js';

const USAGE =
  'ledgerlink experience set PARTNER_ID NAME --app-name TEXT [--color #RRGGBB] [--logo URL] [--json] [--data DIR]\n       ledgerlink experience show PARTNER_ID NAME [--json] [--data DIR]';

/** `ledgerlink experience`: the Connect experiences (application name, logo, brand colour) a partner's links name. */
export async function experience(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, { ...dataOptions, 'app-name': { type: 'string' }, color: { type: 'string' }, logo: { type: 'string' } }, USAGE);
  const [action, partnerId, name] = positionals;
  if ((action !== 'set' && action !== 'show') || !partnerId || !name)
    throw new UsageError(action ? `experience ${action} needs a partner id and a name` : 'experience needs an action', `usage: ${USAGE}`);
  const shown = await withRuntime(values.data, async (rt) => {
    const db = rt.database.kysely;
    if (!(await db.selectFrom('partners').select('id').where('id', '=', partnerId).executeTakeFirst()))
      throw new UsageError(`no partner ${partnerId}`, 'list partners with the dashboard or create one with ledgerlink partner create');
    if (action === 'set') {
      if (!values['app-name']) throw new UsageError('experience set needs --app-name', `usage: ${USAGE}`);
      await saveExperience(
        db,
        partnerId,
        { name, appName: values['app-name'], logoUrl: values.logo ?? null, primaryColor: values.color ?? '#1f5fbf' },
        epochSeconds(rt.clock),
      );
    }
    return resolveExperience(db, partnerId, name);
  });
  if (values.json) printJson(shown);
  else
    print(
      `experience ${oneLine(shown.name)} (id ${shown.id}): ${oneLine(shown.appName)}, colour ${oneLine(shown.primaryColor)}${shown.logoUrl ? `, logo ${oneLine(shown.logoUrl)}` : ''}`,
    );
}
