/**
 * Day-to-day spending: the flexible part of a month. Every account with spending has a balance target for
 * the start of each month; whatever its scheduled items (pay, bills, transfers) leave over is spent here as
 * believable purchases whose amounts add up to exactly that figure, so balances stay consistent without
 * replaying history.
 */
import { daysInMonth, firstDayOfMonth } from './calendar.js';
import type { LedgerEntry } from './entries.js';
import { BIG_TICKETS, type Merchant, type SpendingMix } from './merchants.js';
import { hashString, mix, type Random } from './random.js';

/** Where purchases happen: the customer's home town and how card purchases appear on this account. */
export interface SpendingPlace {
  seed: number;
  city: string;
  state: string;
  /** Debit cards post as point-of-sale on a deposit account; credit card purchases are debits on the card. */
  onCard: boolean;
  /** Foreign purchases on a credit card carry this fee (fraction), e.g. 0.03. */
  foreignFee: number;
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

function code(rng: Random, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += CODE_ALPHABET[rng.int(0, CODE_ALPHABET.length - 1)];
  return out;
}

const TOKENS = new Set(['store', 'city', 'state', 'code']);
const templates = new WeakMap<Merchant, { parts: { text: string; token: boolean }[]; hash: number }>();

function template(m: Merchant) {
  let t = templates.get(m);
  if (!t) {
    const parts = m.descriptor.split(/\{(store|city|state|code)\}/).map((text, i) => ({ text, token: i % 2 === 1 && TOKENS.has(text) }));
    t = { parts, hash: hashString(m.key) };
    templates.set(m, t);
  }
  return t;
}

/** The statement text of a purchase: store numbers are stable per customer (people use the same shops). */
export function describe(m: Merchant, place: SpendingPlace, rng: Random): string {
  const { parts, hash } = template(m);
  let out = '';
  for (const { text, token } of parts) {
    if (!token) out += text;
    else if (text === 'store') out += String(1000 + (mix(place.seed, hash, rng.int(0, 2)) % 9000));
    else if (text === 'city') out += m.place ? m.place.city : place.city;
    else if (text === 'state') out += m.place ? m.place.state : place.state;
    else out += code(rng, 9);
  }
  return out;
}

/** A purchase on a random day of the month from day-of-month `fromDom` on. */
function purchase(m: Merchant, place: SpendingPlace, rng: Random, month: number, naturalCents: number, fromDom = 1): LedgerEntry {
  const day = firstDayOfMonth(month) + rng.int(fromDom - 1, daysInMonth(month) - 1);
  const [from, to] = m.hours;
  return {
    day,
    time: rng.int(from * 3600, to * 3600 + 3599),
    lag: rng.int(1, 3),
    cents: -naturalCents,
    type: m.online || place.onCard ? 'debit' : 'pointOfSale',
    description: describe(m, place, rng),
    payee: m.name,
    category: m.category,
    country: m.place?.country ?? 'USA',
  };
}

function natural(m: Merchant, rng: Random): number {
  return Math.max(50, Math.round(rng.skewed(m.min, m.max) * 100));
}

/**
 * Scales the amounts of `items` (all debits) so they add up to exactly `-targetCents`, keeping each at least
 * 50 cents; the rounding remainder goes to the largest item.
 */
function scaleTo(items: LedgerEntry[], targetCents: number): void {
  const total = items.reduce((s, e) => s - e.cents, 0);
  if (items.length === 0 || total <= 0) return;
  const factor = targetCents / total;
  let sum = 0;
  let largest = items[0] as LedgerEntry;
  for (const e of items) {
    e.cents = -Math.max(50, Math.round(-e.cents * factor));
    sum -= e.cents;
    if (e.cents < largest.cents) largest = e;
  }
  largest.cents -= targetCents - sum;
}

/** Draws purchases from a mix until their natural amounts reach `targetCents`, then scales them onto it. */
function drawPurchases(mix: SpendingMix, place: SpendingPlace, rng: Random, month: number, targetCents: number, out: LedgerEntry[]): void {
  if (targetCents <= 0) return;
  const items: LedgerEntry[] = [];
  let total = 0;
  while (total < targetCents) {
    const m = rng.pickWeighted(mix.merchants, mix.cumulativeWeights);
    const amount = natural(m, rng);
    const entry = purchase(m, place, rng, month, amount);
    if (m.tipped) entry.pendingCents = 0; // filled in after scaling
    items.push(entry);
    total += amount;
  }
  scaleTo(items, targetCents);
  for (const e of items) {
    if (e.pendingCents !== undefined) e.pendingCents = Math.round(e.cents / 1.2);
    out.push(e);
  }
}

/** Money that came in from outside the bank (a friend paying back, a refund): used when a month needs more in than out. */
function inflows(place: SpendingPlace, rng: Random, month: number, totalCents: number, out: LedgerEntry[]): void {
  const pieces = totalCents > 150_000 ? 2 : 1;
  let left = totalCents;
  for (let i = 0; i < pieces; i++) {
    const amount = i === pieces - 1 ? left : Math.round(left * rng.between(0.4, 0.6));
    left -= amount;
    const day = firstDayOfMonth(month) + rng.int(0, daysInMonth(month) - 1);
    if (place.onCard) {
      out.push({
        day,
        time: rng.int(12 * 3600, 20 * 3600),
        lag: 1,
        cents: amount,
        type: 'credit',
        description: `MERCHANDISE RETURN ${code(rng, 6)}`,
        payee: 'Merchandise Return',
        category: 'Reimbursement',
        country: 'USA',
      });
    } else {
      const who = rng.pick(['J SMITH', 'M GARCIA', 'A CHEN', 'R PATEL', 'K JOHNSON']);
      const zelle = rng.chance(0.6);
      out.push({
        day,
        time: rng.int(12 * 3600, 22 * 3600),
        lag: zelle ? 0 : 1,
        cents: amount,
        type: 'deposit',
        description: zelle ? `ZELLE PAYMENT FROM ${who} CONF# ${code(rng, 9)}` : `MOBILE DEPOSIT REF ${code(rng, 8)}`,
        payee: zelle ? 'Zelle' : 'Mobile Deposit',
        category: zelle ? 'Transfer' : 'Deposit',
        country: 'USA',
      });
    }
  }
}

/**
 * The month's flexible spending: entries whose amounts sum to exactly `flexCents` (normally negative).
 * `typicalCents` is what the account usually spends in a month: far more than that turns into a trip or a big
 * purchase, far less into fewer purchases plus money coming in.
 */
export function spendMonth(mix: SpendingMix, place: SpendingPlace, month: number, flexCents: number, typicalCents: number, rng: Random): LedgerEntry[] {
  const out: LedgerEntry[] = [];
  const need = -flexCents;
  let everyday = need;
  if (need > 2 * typicalCents) {
    // An unusual month: big tickets absorb everything above a normal month's spending. They come in the
    // second half of the month, after the windfall (a bonus, savings moved over) that pays for them.
    const bigTarget = need - typicalCents;
    const big: LedgerEntry[] = [];
    let bigTotal = 0;
    while (bigTotal < bigTarget) {
      const m = rng.pickWeighted(BIG_TICKETS.merchants, BIG_TICKETS.cumulativeWeights);
      const amount = natural(m, rng);
      big.push(purchase(m, place, rng, month, amount, 16));
      bigTotal += amount;
    }
    scaleTo(big, bigTarget);
    out.push(...big);
    everyday = typicalCents;
  } else if (need < 0.35 * typicalCents) {
    everyday = Math.round(0.7 * typicalCents);
    inflows(place, rng, month, everyday - need, out);
  }
  drawPurchases(mix, place, rng, month, everyday, out);
  if (place.onCard && place.foreignFee > 0) foreignFees(place, out);
  return out;
}

/**
 * Splits each purchase abroad on a credit card into the purchase and the card's foreign transaction fee,
 * keeping their sum, so the month's total is unchanged.
 */
function foreignFees(place: SpendingPlace, out: LedgerEntry[]): void {
  const fees: LedgerEntry[] = [];
  for (const e of out) {
    if (e.country === 'USA' || e.cents >= 0) continue;
    const total = -e.cents;
    const price = Math.round(total / (1 + place.foreignFee));
    const fee = total - price;
    e.cents = -price;
    fees.push({
      day: e.day,
      time: e.time,
      lag: e.lag,
      cents: -fee,
      feeCents: fee,
      type: 'fee',
      description: 'FOREIGN TRANSACTION FEE',
      memo: e.description,
      payee: 'FinBank',
      category: 'Fees & Charges',
      country: 'USA',
    });
  }
  out.push(...fees);
}
