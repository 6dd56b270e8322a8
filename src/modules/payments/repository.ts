/** The payment products' own queries; the accounts themselves are read through the aggregation module. */
import type { Executor } from '../../platform/db/database.js';

/** Whether a statement file stated a balance of the account (its daily history holds one of source `statement`). */
export async function hasStatedBalance(db: Executor, accountId: number): Promise<boolean> {
  const row = await db.selectFrom('account_balances').select('day').where('account_id', '=', accountId).where('source', '=', 'statement').executeTakeFirst();
  return row !== undefined;
}
