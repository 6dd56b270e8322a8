/**
 * Securities held in test bank investment accounts, and their prices: a deterministic, smooth, believable
 * function of the calendar day (no history to replay), so any two customers see the same quotes.
 */
import { monthOfYear, parseDay } from './calendar.js';
import { hashString, noiseOf } from './random.js';

export type SecurityKind = 'stock' | 'etf' | 'fund' | 'bond' | 'money';

export interface Security {
  symbol: string;
  name: string;
  /** A CUSIP (with its check digit). */
  cusip: string;
  exchange: string;
  kind: SecurityKind;
  /** Price on the reference day (2025-01-01); bonds are quoted per 100 of face value. */
  price: number;
  /** Yearly drift and volatility of the log price. */
  drift: number;
  vol: number;
  /** Yearly income as a fraction of price (dividends), or the coupon rate for bonds. */
  yield: number;
  /** Months of the year income is paid. */
  payMonths: readonly number[];
  /** Bonds: the maturity day (`YYYY-MM-DD`). */
  maturity?: string;
}

const QUARTERLY = [3, 6, 9, 12] as const;
const MONTHLY = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;

const LIST: Security[] = [
  {
    symbol: 'VTI',
    name: 'Vanguard Total Stock Market ETF',
    cusip: '922908769',
    exchange: 'ARCX',
    kind: 'etf',
    price: 290.5,
    drift: 0.08,
    vol: 0.16,
    yield: 0.013,
    payMonths: QUARTERLY,
  },
  {
    symbol: 'VOO',
    name: 'Vanguard S&P 500 ETF',
    cusip: '922908363',
    exchange: 'ARCX',
    kind: 'etf',
    price: 532.1,
    drift: 0.08,
    vol: 0.15,
    yield: 0.0125,
    payMonths: QUARTERLY,
  },
  {
    symbol: 'VXUS',
    name: 'Vanguard Total International Stock ETF',
    cusip: '921909768',
    exchange: 'XNAS',
    kind: 'etf',
    price: 59.8,
    drift: 0.05,
    vol: 0.15,
    yield: 0.031,
    payMonths: QUARTERLY,
  },
  {
    symbol: 'BND',
    name: 'Vanguard Total Bond Market ETF',
    cusip: '921937835',
    exchange: 'XNAS',
    kind: 'etf',
    price: 72.4,
    drift: 0.005,
    vol: 0.04,
    yield: 0.036,
    payMonths: QUARTERLY,
  },
  {
    symbol: 'VTSAX',
    name: 'Vanguard Total Stock Market Index Fund Admiral Shares',
    cusip: '922908728',
    exchange: 'XNAS',
    kind: 'fund',
    price: 141.2,
    drift: 0.08,
    vol: 0.16,
    yield: 0.013,
    payMonths: QUARTERLY,
  },
  {
    symbol: 'VFIAX',
    name: 'Vanguard 500 Index Fund Admiral Shares',
    cusip: '922908710',
    exchange: 'XNAS',
    kind: 'fund',
    price: 533.9,
    drift: 0.08,
    vol: 0.15,
    yield: 0.0125,
    payMonths: QUARTERLY,
  },
  {
    symbol: 'VTIAX',
    name: 'Vanguard Total International Stock Index Fund Admiral Shares',
    cusip: '921909818',
    exchange: 'XNAS',
    kind: 'fund',
    price: 33.1,
    drift: 0.05,
    vol: 0.15,
    yield: 0.031,
    payMonths: QUARTERLY,
  },
  {
    symbol: 'FXAIX',
    name: 'Fidelity 500 Index Fund',
    cusip: '315911750',
    exchange: 'XNAS',
    kind: 'fund',
    price: 201.6,
    drift: 0.08,
    vol: 0.15,
    yield: 0.012,
    payMonths: QUARTERLY,
  },
  {
    symbol: 'SPAXX',
    name: 'Fidelity Government Money Market Fund',
    cusip: '31617H102',
    exchange: 'XNAS',
    kind: 'money',
    price: 1,
    drift: 0,
    vol: 0,
    yield: 0.042,
    payMonths: MONTHLY,
  },
  {
    symbol: 'VMFXX',
    name: 'Vanguard Federal Money Market Fund',
    cusip: '922906300',
    exchange: 'XNAS',
    kind: 'money',
    price: 1,
    drift: 0,
    vol: 0,
    yield: 0.043,
    payMonths: MONTHLY,
  },
  {
    symbol: 'AAPL',
    name: 'Apple Inc.',
    cusip: '037833100',
    exchange: 'XNAS',
    kind: 'stock',
    price: 243.8,
    drift: 0.1,
    vol: 0.26,
    yield: 0.0042,
    payMonths: [2, 5, 8, 11],
  },
  {
    symbol: 'MSFT',
    name: 'Microsoft Corporation',
    cusip: '594918104',
    exchange: 'XNAS',
    kind: 'stock',
    price: 421.5,
    drift: 0.1,
    vol: 0.24,
    yield: 0.0078,
    payMonths: QUARTERLY,
  },
  {
    symbol: 'GOOGL',
    name: 'Alphabet Inc. Class A',
    cusip: '02079K305',
    exchange: 'XNAS',
    kind: 'stock',
    price: 189.3,
    drift: 0.1,
    vol: 0.28,
    yield: 0.0042,
    payMonths: QUARTERLY,
  },
  {
    symbol: 'AMZN',
    name: 'Amazon.com, Inc.',
    cusip: '023135106',
    exchange: 'XNAS',
    kind: 'stock',
    price: 219.4,
    drift: 0.1,
    vol: 0.3,
    yield: 0,
    payMonths: [],
  },
  {
    symbol: 'NVDA',
    name: 'NVIDIA Corporation',
    cusip: '67066G104',
    exchange: 'XNAS',
    kind: 'stock',
    price: 134.3,
    drift: 0.14,
    vol: 0.45,
    yield: 0.0003,
    payMonths: [3, 6, 9, 12],
  },
  {
    symbol: 'JNJ',
    name: 'Johnson & Johnson',
    cusip: '478160104',
    exchange: 'XNYS',
    kind: 'stock',
    price: 144.6,
    drift: 0.05,
    vol: 0.17,
    yield: 0.033,
    payMonths: QUARTERLY,
  },
  {
    symbol: 'KO',
    name: 'The Coca-Cola Company',
    cusip: '191216100',
    exchange: 'XNYS',
    kind: 'stock',
    price: 62.3,
    drift: 0.05,
    vol: 0.15,
    yield: 0.031,
    payMonths: [4, 7, 10, 12],
  },
  {
    symbol: '91282CJZ5',
    name: 'US Treasury Note 4.000% 02/15/2034',
    cusip: '91282CJZ5',
    exchange: 'OTC',
    kind: 'bond',
    price: 97.35,
    drift: 0,
    vol: 0.03,
    yield: 0.04,
    payMonths: [2, 8],
    maturity: '2034-02-15',
  },
];

export const SECURITIES: ReadonlyMap<string, Security> = new Map(LIST.map((s) => [s.symbol, s]));

export function security(symbol: string): Security {
  const found = SECURITIES.get(symbol);
  if (!found) throw new Error(`Unknown security ${symbol}`);
  return found;
}

const REFERENCE_DAY = parseDay('2025-01-01');
const TWO_PI = 2 * Math.PI;

/** The closing price of a security on a day, rounded to cents (money market funds stay at 1.00). */
export function priceOn(s: Security, day: number): number {
  if (s.kind === 'money') return 1;
  const h = hashString(s.symbol);
  const phase = (k: number) => (((h >>> (k * 8)) & 0xff) / 256) * TWO_PI;
  const wave =
    0.5 * Math.sin((TWO_PI * day) / 97 + phase(0)) +
    0.35 * Math.sin((TWO_PI * day) / 233 + phase(1)) +
    0.25 * Math.sin((TWO_PI * day) / 547 + phase(2)) +
    0.06 * noiseOf(s.symbol, day);
  if (s.kind === 'bond' && s.maturity) {
    // Bonds pull to par as they approach maturity.
    const maturity = parseDay(s.maturity);
    const left = Math.max(0, maturity - day) / (maturity - REFERENCE_DAY);
    const price = 100 + (s.price - 100) * Math.min(1, left) + s.vol * 10 * wave * Math.min(1, left);
    return Math.round(price * 100) / 100;
  }
  const years = (day - REFERENCE_DAY) / 365;
  return Math.round(s.price * Math.exp(s.drift * years + s.vol * wave) * 100) / 100;
}

/** Income per unit paid in a month (0 outside the security's pay months). */
export function incomePerUnit(s: Security, month: number, day: number): number {
  if (!s.payMonths.includes(monthOfYear(month))) return 0;
  if (s.kind === 'bond') return (100 * s.yield) / s.payMonths.length;
  return (priceOn(s, day) * s.yield) / s.payMonths.length;
}
