/**
 * The states lists show (pending, retrying, failed, delivered, cancelled), derived from the stored columns: `status`
 * (pending, delivering, delivered, cancelled), `attempts` (started since the delivery was queued or last redelivered)
 * and `gave_up`. `deliveryState` reads a row; `stateCondition` is the same rule as SQL, for filtering.
 */
import { sql, type RawBuilder } from 'kysely';
import type { DeliveryRow, DeliveryState } from './table.js';

type StateColumns = Pick<DeliveryRow, 'status' | 'attempts' | 'gave_up'>;

/**
 * A row's state. A claimed row (`delivering`) has its attempt counted already: its first attempt under way is still
 * pending, a later one retrying.
 */
export function deliveryState(row: StateColumns): DeliveryState {
  switch (row.status) {
    case 'delivered':
      return 'delivered';
    case 'cancelled':
      return Number(row.gave_up) === 1 ? 'failed' : 'cancelled';
    case 'delivering':
      return row.attempts <= 1 ? 'pending' : 'retrying';
    default:
      return row.attempts === 0 ? 'pending' : 'retrying';
  }
}

/** The SQL of deliveryState(row) = state, on the deliveries row named `alias`. */
export function stateCondition(alias: string, state: DeliveryState): RawBuilder<boolean> {
  const status = sql.ref(`${alias}.status`);
  const attempts = sql.ref(`${alias}.attempts`);
  const gaveUp = sql.ref(`${alias}.gave_up`);
  switch (state) {
    case 'delivered':
      return sql<boolean>`${status} = 'delivered'`;
    case 'failed':
      return sql<boolean>`(${status} = 'cancelled' and ${gaveUp} = 1)`;
    case 'cancelled':
      return sql<boolean>`(${status} = 'cancelled' and ${gaveUp} = 0)`;
    case 'pending':
      return sql<boolean>`((${status} = 'pending' and ${attempts} = 0) or (${status} = 'delivering' and ${attempts} <= 1))`;
    case 'retrying':
      return sql<boolean>`((${status} = 'pending' and ${attempts} > 0) or (${status} = 'delivering' and ${attempts} > 1))`;
  }
}
