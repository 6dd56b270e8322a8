import type { ThirdPartyProduct } from '../../../../contract/schemas/apps.js';
import { useAccessKey } from '../../../../modules/apps/access.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';

/** The header a third party sends a key it was granted in (docs/app-registration.md). */
export const ACCESS_KEY_HEADER = 'service-access-key';

/**
 * The partner a product call of one account is served as: the caller, or with a Service-Access-Key the partner that
 * granted it, once the key is found to grant the caller this product on this customer's account now.
 */
export async function servedPartner(
  runtime: Pick<Runtime, 'database' | 'clock' | 'keys'>,
  request: {
    caller: { partnerId: string };
    headers: Readonly<Record<string, string | string[] | undefined>>;
    params: { customerId: string; accountId: string };
  },
  product: ThirdPartyProduct,
): Promise<string> {
  const raw = request.headers[ACCESS_KEY_HEADER];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined) return request.caller.partnerId;
  return useAccessKey(runtime, request.caller.partnerId, key, product, request.params.customerId, request.params.accountId);
}
