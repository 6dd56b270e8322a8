import type { Static } from 'typebox';
import type { AccountRow } from '../../modules/aggregation/table.js';
import type { AccountSimple } from '../../contract/schemas/accounts.js';

/** An account as the `simple` account routes show it (CustomerAccountSimple): absent dates are left out. */
export function toAccountSimple(row: AccountRow): Static<typeof AccountSimple> {
  return {
    id: String(row.id),
    accountNumberDisplay: row.account_number_display,
    name: row.name,
    type: row.type,
    aggregationStatusCode: row.aggregation_status_code,
    status: row.status,
    customerId: String(row.customer_id),
    institutionId: String(row.institution_id),
    ...(row.aggregation_success_at !== null ? { aggregationSuccessDate: row.aggregation_success_at } : {}),
    ...(row.aggregation_attempt_at !== null ? { aggregationAttemptDate: row.aggregation_attempt_at } : {}),
    createdDate: Number(row.created_at),
    currency: row.currency,
    institutionLoginId: Number(row.institution_login_id),
    displayPosition: row.display_position,
  };
}
