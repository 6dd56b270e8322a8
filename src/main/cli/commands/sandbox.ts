import { createEngine } from '../../../modules/aggregation/engine.js';
import { advanceClock, clearLoginError, resetCustomer, SANDBOX_ERROR_CODES, setLoginError } from '../../../modules/sandbox/controls.service.js';
import { dataOptions, parse, positiveInteger, UsageError, withRuntime } from '../args.js';
import { partnerNote, type PickedPartner, sandboxPartner } from '../sandbox-partner.js';
import { print, printError, printJson } from '../../../platform/terminal-text.js';
import { isoTime } from './deliveries.js';

const USAGE =
  'ledgerlink sandbox clock CUSTOMER_ID --days N | error CUSTOMER_ID LOGIN_ID (--code N | --clear) | reset CUSTOMER_ID  [--partner ID] [--json] [--data DIR]';

/** `ledgerlink sandbox ...`: the sandbox controls on the data store (docs/sandbox.md). */
export async function sandbox(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    argv,
    {
      ...dataOptions,
      partner: { type: 'string' },
      days: { type: 'string' },
      code: { type: 'string' },
      clear: { type: 'boolean', default: false },
    },
    USAGE,
  );
  const [action, customerId, loginId] = positionals;
  if (!action) throw new UsageError('sandbox needs an action: clock, error or reset', `usage: ${USAGE}`);
  if (!['clock', 'error', 'reset'].includes(action)) throw new UsageError(`unknown sandbox action "${action}"`, `usage: ${USAGE}`);
  if (!customerId) throw new UsageError(`sandbox ${action} needs a customer id`, `usage: ${USAGE}`);
  const days = action === 'clock' ? positiveInteger('--days', values.days, USAGE) : undefined;
  if (action === 'clock' && days === undefined) throw new UsageError('sandbox clock needs --days N', `usage: ${USAGE}`);
  let code: number | undefined;
  if (action === 'error') {
    if (!loginId) throw new UsageError('sandbox error needs a customer id and an institution login id', `usage: ${USAGE}`);
    if ((values.code === undefined) === !values.clear)
      throw new UsageError('sandbox error needs either --code N or --clear', `codes: ${SANDBOX_ERROR_CODES.join(', ')}`);
    code = values.code === undefined ? undefined : Number(values.code);
  }
  let picked: PickedPartner | undefined;
  const result = await withRuntime(values.data, async (runtime) => {
    picked = await sandboxPartner(runtime.database.kysely, values.partner, USAGE, customerId);
    const caller = { partnerId: picked.partnerId, plan: picked.plan };
    const engine = createEngine(runtime);
    switch (action) {
      case 'clock': {
        const r = await advanceClock(engine, caller, customerId, days!);
        const logins = r.institutionLogins.map(
          (l) => `  institution login ${l.institutionLoginId}: ${l.aggregationStatusCode === 0 ? 'refreshed' : `failed with ${l.aggregationStatusCode}`}`,
        );
        return {
          json: r,
          text: [`Customer ${r.customerId}'s clock moved ahead ${r.days} days; it is now ${isoTime(r.customerDate)} for this customer.`, ...logins],
        };
      }
      case 'error': {
        const r =
          code === undefined ? await clearLoginError(engine, caller, customerId, loginId!) : await setLoginError(engine, caller, customerId, loginId!, code);
        return {
          json: r,
          text: [
            r.aggregationStatusCode === 0
              ? `Institution login ${r.institutionLoginId} is healthy again.`
              : `Institution login ${r.institutionLoginId} is now in error ${r.aggregationStatusCode}: ${r.message}`,
          ],
        };
      }
      default: {
        const r = await resetCustomer(engine, caller, customerId);
        return { json: r, text: [`Customer ${r.customerId} reset: ${r.institutionLogins} institution logins and ${r.accounts} accounts removed.`] };
      }
    }
  });
  if (values.json) printJson(result.json);
  else {
    print(result.text.join('\n'));
    // On stderr, so the result on stdout reads as before.
    if (picked) printError(`Acted for ${partnerNote(picked)}.`);
  }
}
