/**
 * The rules of micro entries that need no database: the amounts, when they land and expire, and what a verification
 * attempt comes to (docs/micro-entries.md).
 */
import { randomInt } from 'node:crypto';
import { TEST_INSTITUTIONS, testRoutingNumber } from '../../connectors/testbank/institutions.js';
import type { MicroEntryStatus } from './table.js';

const DAY = 86_400;
/** The deposits land one day after the initiation (customer clock): ACH's next-day settlement. */
export const ARRIVAL_SECONDS = DAY;
/** Entries not verified within ten days of landing expire. */
export const EXPIRY_SECONDS = 10 * DAY;
/** Wrong answers allowed; the last one fails the entries. */
export const MAX_FAILED_ATTEMPTS = 3;
export const DEPOSIT_COUNT = 2;

const TEST_ROUTING_NUMBERS: ReadonlySet<string> = new Set(TEST_INSTITUTIONS.map((i) => testRoutingNumber(i.id)));

/** Whether the routing number is a test institution's, whose micro entries are predictable. */
export function isTestRoutingNumber(routingNumber: string): boolean {
  return TEST_ROUTING_NUMBERS.has(routingNumber);
}

/**
 * The test institutions' amounts, in cents, from the account number's last four digits ABCD: 1 + (ABCD mod 99) and
 * 1 + (AB mod 99), the second one cent more (99 wrapping to 1) when they would be equal (docs/test-profiles.md).
 */
export function testAmounts(accountNumber: string): [number, number] {
  const last4 = Number(accountNumber.slice(-4));
  const first = 1 + (last4 % 99);
  let second = 1 + (Math.floor(last4 / 100) % 99);
  if (second === first) second = (first % 99) + 1;
  return [first, second];
}

/** Two different amounts of 1 to 99 cents, from the system's random source. */
export function randomAmounts(random: (min: number, max: number) => number = randomInt): [number, number] {
  const first = random(1, 100);
  let second = random(1, 99);
  if (second >= first) second += 1;
  return [first, second];
}

/** The amounts of a new initiation, in cents. */
export function amountsFor(routingNumber: string, accountNumber: string): [number, number] {
  return isTestRoutingNumber(routingNumber) ? testAmounts(accountNumber) : randomAmounts();
}

/**
 * An answered amount in cents: a number of dollars with at most two decimals, from 0.01 to 0.99; undefined for
 * anything else (more decimals, zero, a dollar or more, negative).
 */
export function answeredCents(amount: number): number | undefined {
  if (!Number.isFinite(amount)) return undefined;
  const cents = Math.round(amount * 100);
  if (Math.abs(cents - amount * 100) > 1e-6) return undefined;
  return cents >= 1 && cents <= 99 ? cents : undefined;
}

/** Whether the answered cents are the deposited ones, in any order. */
export function amountsMatch(deposited: readonly number[], answered: readonly number[]): boolean {
  if (deposited.length !== answered.length) return false;
  const a = [...deposited].sort((x, y) => x - y);
  const b = [...answered].sort((x, y) => x - y);
  return a.every((v, i) => v === b[i]);
}

/** The status an entry has reached by `now`, given the stored one (Pending lands, Completed expires). */
export function statusAt(status: MicroEntryStatus, arrivesAt: number, now: number): MicroEntryStatus {
  if (status === 'Pending' && now >= arrivesAt) return now >= arrivesAt + EXPIRY_SECONDS ? 'Expired' : 'Completed';
  if (status === 'Completed' && now >= arrivesAt + EXPIRY_SECONDS) return 'Expired';
  return status;
}

/** Statuses after which the same account may be initiated again. */
export const REINITIABLE: ReadonlySet<MicroEntryStatus> = new Set(['Failed', 'Expired', 'Rejected', 'Returned']);

/** The reference's words for each status. */
export function statusDescription(status: MicroEntryStatus, failedAttempts = 0): string {
  switch (status) {
    case 'Pending':
      return 'Micro entries initiated; they reach the account within one day.';
    case 'Completed':
      return failedAttempts > 0
        ? `Micro entries deposited to the account; ${MAX_FAILED_ATTEMPTS - failedAttempts} verification attempts left.`
        : 'Micro entries deposited to the account; waiting for their amounts.';
    case 'Verified':
      return 'Micro entries verified.';
    case 'Failed':
      return 'Micro entries failed: verification attempts exceeded.';
    case 'Expired':
      return `Micro entries expired: not verified within ${EXPIRY_SECONDS / DAY} days of their deposit.`;
    case 'Rejected':
      return 'Micro entries rejected by the receiving bank.';
    case 'Returned':
      return 'Micro entries returned by the receiving bank.';
  }
}
