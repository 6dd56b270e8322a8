/**
 * The payees of the test bank: where people spend, what they pay every month, and how each appears on a
 * statement. Categories are the real-world service's category names.
 */
import type { TransactionCategory } from '../categories.js';
import { cumulative } from './random.js';

export interface Merchant {
  key: string;
  /** categorization.normalizedPayeeName */
  name: string;
  /** categorization.category */
  category: TransactionCategory;
  /**
   * The raw statement text. `{store}` becomes a store number, `{city}`/`{state}` the customer's home town
   * (or the merchant's own place when `place` is set), `{code}` an order code.
   */
  descriptor: string;
  /** Typical receipt, in dollars. */
  min: number;
  max: number;
  /** Hours of the day (UTC) the merchant takes payments. */
  hours: readonly [number, number];
  /** Online merchants post as plain debits, in-store ones as point-of-sale. */
  online?: boolean;
  /** Restaurants: the pending amount excludes the tip added when it posts. */
  tipped?: boolean;
  /** A fixed place for merchants away from home (travel). */
  place?: { city: string; state: string; country: string };
}

const ALL_DAY = [12, 23] as const;
const MORNING = [11, 17] as const;
const EVENING = [18, 23] as const;

function m(key: string, name: string, category: TransactionCategory, descriptor: string, min: number, max: number, extra: Partial<Merchant> = {}): Merchant {
  return { key, name, category, descriptor, min, max, hours: ALL_DAY, ...extra };
}

const MERCHANT_LIST: Merchant[] = [
  // Groceries and household
  m('safeway', 'Safeway', 'Groceries', 'SAFEWAY #{store} {city} {state}', 18, 190),
  m('trader_joes', "Trader Joe's", 'Groceries', "TRADER JOE'S #{store} {city} {state}", 14, 120),
  m('whole_foods', 'Whole Foods Market', 'Groceries', 'WHOLEFDS {store} {city} {state}', 12, 160),
  m('costco', 'Costco', 'Groceries', 'COSTCO WHSE #{store} {city} {state}', 60, 340),
  m('target', 'Target', 'Shopping', 'TARGET 000{store} {city} {state}', 9, 160),
  m('walgreens', 'Walgreens', 'Pharmacy', 'WALGREENS #{store} {city} {state}', 5, 60),
  m('cvs', 'CVS Pharmacy', 'Pharmacy', 'CVS/PHARMACY #{store} {city} {state}', 4, 55),
  m('home_depot', 'The Home Depot', 'Home Improvement', 'THE HOME DEPOT #{store} {city} {state}', 12, 260),
  m('ikea', 'IKEA', 'Furnishings', 'IKEA {city} {state}', 25, 300),
  m('petco', 'Petco', 'Pet Food & Supplies', 'PETCO {store} {city} {state}', 15, 90),
  m('seven_eleven', '7-Eleven', 'Groceries', '7-ELEVEN {store} {city} {state}', 2, 18),
  // Food and drink
  m('starbucks', 'Starbucks', 'Coffee Shops', 'STARBUCKS STORE {store} {city} {state}', 3.5, 14, { hours: MORNING }),
  m('blue_bottle', 'Blue Bottle Coffee', 'Coffee Shops', 'SQ *BLUE BOTTLE COFFEE {city} {state}', 4, 12, { hours: MORNING }),
  m('peets', "Peet's Coffee", 'Coffee Shops', "PEET'S #{store} {city} {state}", 3, 11, { hours: MORNING }),
  m('chipotle', 'Chipotle', 'Fast Food', 'CHIPOTLE {store} {city} {state}', 9, 32),
  m('mcdonalds', "McDonald's", 'Fast Food', "MCDONALD'S F{store} {city} {state}", 4, 22),
  m('subway', 'Subway', 'Fast Food', 'SUBWAY {store} {city} {state}', 6, 20),
  m('sweetgreen', 'Sweetgreen', 'Restaurants', 'SWEETGREEN {city} {state}', 11, 28),
  m('olive_garden', 'Olive Garden', 'Restaurants', 'OLIVE GARDEN {store} {city} {state}', 28, 120, { tipped: true, hours: EVENING }),
  m('local_bistro', 'Corner Bistro', 'Restaurants', 'TST* CORNER BISTRO {city} {state}', 30, 160, { tipped: true, hours: EVENING }),
  m('sushi', 'Sakura Sushi', 'Restaurants', 'SQ *SAKURA SUSHI {city} {state}', 22, 110, { tipped: true, hours: EVENING }),
  m('taproom', 'The Tap Room', 'Alcohol & Bars', 'TST* THE TAP ROOM {city} {state}', 12, 75, { tipped: true, hours: EVENING }),
  m('doordash', 'DoorDash', 'Food & Dining', 'DOORDASH*{code} SAN FRANCISCO CA', 16, 70, { online: true, hours: EVENING }),
  m('ubereats', 'Uber Eats', 'Food & Dining', 'UBER *EATS {code} HELP.UBER.COM CA', 14, 60, { online: true, hours: EVENING }),
  // Transport
  m('shell', 'Shell', 'Gas & Fuel', 'SHELL OIL {store} {city} {state}', 25, 78),
  m('chevron', 'Chevron', 'Gas & Fuel', 'CHEVRON 00{store} {city} {state}', 22, 82),
  m('uber', 'Uber', 'Rental Car & Taxi', 'UBER *TRIP {code} HELP.UBER.COM CA', 8, 48, { online: true }),
  m('lyft', 'Lyft', 'Rental Car & Taxi', 'LYFT *RIDE {code} LYFT.COM CA', 7, 42, { online: true }),
  m('transit', 'Metro Transit', 'Public Transportation', 'METRO TRANSIT FARE {city} {state}', 2.5, 12),
  m('parking', 'City Parking', 'Parking', 'PARKMOBILE {code} {city} {state}', 3, 28, { online: true }),
  m('jiffy_lube', 'Jiffy Lube', 'Service & Parts', 'JIFFY LUBE #{store} {city} {state}', 45, 140),
  // Shopping and leisure
  m('amazon', 'Amazon', 'Shopping', 'AMAZON.COM*{code} AMZN.COM/BILL WA', 8, 140, { online: true }),
  m('amazon_mkt', 'Amazon', 'Shopping', 'AMZN MKTP US*{code} AMZN.COM/BILL WA', 6, 90, { online: true }),
  m('etsy', 'Etsy', 'Shopping', 'ETSY.COM - {code} BROOKLYN NY', 12, 85, { online: true }),
  m('best_buy', 'Best Buy', 'Electronics & Software', 'BEST BUY 00{store} {city} {state}', 20, 400),
  m('apple_store', 'Apple', 'Electronics & Software', 'APPLE.COM/BILL {code} CUPERTINO CA', 0.99, 30, { online: true }),
  m('nike', 'Nike', 'Clothing', 'NIKE.COM {code} BEAVERTON OR', 40, 180, { online: true }),
  m('old_navy', 'Old Navy', 'Clothing', 'OLD NAVY {store} {city} {state}', 15, 110),
  m('barnes', 'Barnes & Noble', 'Books', 'BARNES & NOBLE #{store} {city} {state}', 10, 60),
  m('amc', 'AMC Theatres', 'Movies & DVDs', 'AMC {store} ONLINE {city} {state}', 12, 48, { hours: EVENING }),
  m('steam', 'Steam', 'Hobbies', 'STEAMGAMES.COM {code} BELLEVUE WA', 5, 60, { online: true }),
  m('great_clips', 'Great Clips', 'Hair', 'GREAT CLIPS #{store} {city} {state}', 18, 40),
  m('dentist', 'Bright Smile Dental', 'Dentist', 'BRIGHT SMILE DENTAL {city} {state}', 40, 260),
  m('vet', 'Happy Paws Veterinary', 'Veterinary', 'HAPPY PAWS VET {city} {state}', 60, 320),
  m('goodwill', 'Goodwill', 'Charity', 'GOODWILL STORE {store} {city} {state}', 5, 40),
  // Student life
  m('campus_books', 'Campus Bookstore', 'Books & Supplies', 'UNIV BOOKSTORE {city} {state}', 12, 140),
  m('campus_dining', 'Campus Dining', 'Fast Food', 'CAMPUS DINING SVCS {city} {state}', 5, 16),
  m('venmo_out', 'Venmo', 'Transfer', 'VENMO *PAYMENT {code} VISA DIRECT NY', 5, 60, { online: true }),
  // Business spending
  m('staples', 'Staples', 'Office Supplies', 'STAPLES {store} {city} {state}', 12, 180),
  m('usps', 'USPS', 'Shipping', 'USPS PO {store} {city} {state}', 4, 65),
  m('fedex', 'FedEx', 'Shipping', 'FEDEX {code} MEMPHIS TN', 9, 120, { online: true }),
  m('google_ads', 'Google Ads', 'Advertising', 'GOOGLE *ADS{code} CC@GOOGLE.COM CA', 25, 260, { online: true }),
  m('restaurant_depot', 'Restaurant Depot', 'Business Services', 'RESTAURANT DEPOT #{store} {city} {state}', 80, 650),
  m('sysco', 'Sysco', 'Business Services', 'SYSCO FOOD SVCS {code} HOUSTON TX', 120, 900, { online: true }),
  m('vistaprint', 'Vistaprint', 'Printing', 'VISTAPRINT.COM {code} LEXINGTON MA', 18, 140, { online: true }),
  m('aws', 'Amazon Web Services', 'Business Services', 'AWS EMEA {code} AWS.AMAZON.CO WA', 5, 220, { online: true }),
  // Big tickets, used when a month's spending is far above normal (a trip, a new appliance)
  m('delta', 'Delta Air Lines', 'Air Travel', 'DELTA AIR 006{code} DELTA.COM GA', 180, 900, { online: true }),
  m('united', 'United Airlines', 'Air Travel', 'UNITED 016{code} UNITED.COM TX', 160, 850, { online: true }),
  m('marriott', 'Marriott', 'Hotel', 'MARRIOTT {store} ORLANDO FL', 180, 1200, { place: { city: 'ORLANDO', state: 'FL', country: 'USA' } }),
  m('hilton_london', 'Hilton', 'Hotel', 'HILTON LONDON PADDINGTON LONDON', 220, 1400, { place: { city: 'LONDON', state: '', country: 'GBR' } }),
  m('airbnb', 'Airbnb', 'Vacation', 'AIRBNB * HM{code} AIRBNB.COM CA', 200, 1500, { online: true }),
  m('hertz', 'Hertz', 'Rental Car & Taxi', 'HERTZ RENT-A-CAR {store} DENVER CO', 120, 600, { place: { city: 'DENVER', state: 'CO', country: 'USA' } }),
  m('appliance', "Lowe's", 'Home Improvement', "LOWE'S #{store} {city} {state}", 250, 1600),
  m('furniture', 'Crate & Barrel', 'Furnishings', 'CRATE&BARREL {store} {city} {state}', 200, 1400),
  m('laptop', 'Apple Store', 'Electronics & Software', 'APPLE STORE R{store} {city} {state}', 300, 2200),
  m('auto_repair', 'Midas', 'Service & Parts', 'MIDAS #{store} {city} {state}', 180, 1200),
  // Bills (scheduled, fixed or variable amounts)
  m('rent', 'Maple Court Apartments', 'Mortgage & Rent', 'MAPLE COURT APTS RENT WEB PMTS', 0, 0, { online: true }),
  m('rent_office', 'Harbor Office Suites', 'Mortgage & Rent', 'HARBOR OFFICE SUITES LEASE PMT', 0, 0, { online: true }),
  m('electric', 'Pacific Power & Light', 'Utilities', 'PACIFIC POWER & LIGHT ONLINE PMT', 0, 0, { online: true }),
  m('gas_utility', 'City Gas Co', 'Utilities', 'CITY GAS CO AUTOPAY', 0, 0, { online: true }),
  m('water', 'Municipal Water', 'Utilities', 'MUNICIPAL WATER DEPT WEB PAY', 0, 0, { online: true }),
  m('comcast', 'Xfinity', 'Internet', 'COMCAST XFINITY CABLE SVCS', 0, 0, { online: true }),
  m('verizon', 'Verizon Wireless', 'Mobile Phone', 'VERIZON WIRELESS PAYMENTS', 0, 0, { online: true }),
  m('tmobile', 'T-Mobile', 'Mobile Phone', 'T-MOBILE AUTO PAY', 0, 0, { online: true }),
  m('geico', 'GEICO', 'Auto Insurance', 'GEICO AUTO INS PREM', 0, 0, { online: true }),
  m('state_farm', 'State Farm', 'Home Insurance', 'STATE FARM INSURANCE PREM', 0, 0, { online: true }),
  m('life_insurance', 'Northwestern Mutual', 'Life Insurance', 'NORTHWESTERN MU ISA PAYMENT', 0, 0, { online: true }),
  m('netflix', 'Netflix', 'Streaming Services', 'NETFLIX.COM NETFLIX.COM CA', 0, 0, { online: true }),
  m('spotify', 'Spotify', 'Music', 'SPOTIFY USA 877-778-1161 NY', 0, 0, { online: true }),
  m('disney', 'Disney+', 'Streaming Services', 'DISNEY PLUS BURBANK CA', 0, 0, { online: true }),
  m('hulu', 'Hulu', 'Streaming Services', 'HULU 877-8244858 CA', 0, 0, { online: true }),
  m('icloud', 'Apple iCloud', 'Electronics & Software', 'APPLE.COM/BILL ICLOUD CUPERTINO CA', 0, 0, { online: true }),
  m('nytimes', 'The New York Times', 'Newspapers & Magazines', 'NYTIMES DIGITAL NEW YORK NY', 0, 0, { online: true }),
  m('planet_fitness', 'Planet Fitness', 'Gym', 'PLANET FITNESS CLUB FEES', 0, 0, { online: true }),
  m('daycare', 'Little Sprouts Daycare', 'Babysitter & Daycare', 'LITTLE SPROUTS DAYCARE TUITION', 0, 0, { online: true }),
  m('red_cross', 'American Red Cross', 'Charity', 'AMERICAN RED CROSS DONATION', 0, 0, { online: true }),
  m('adobe', 'Adobe', 'Electronics & Software', 'ADOBE *CREATIVE CLOUD SAN JOSE CA', 0, 0, { online: true }),
  m('quickbooks', 'QuickBooks', 'Business Services', 'INTUIT *QBOOKS ONLINE CA', 0, 0, { online: true }),
  m('square_fees', 'Square', 'Fees & Charges', 'SQUARE INC MONTHLY FEES', 0, 0, { online: true }),
  m('irs', 'IRS', 'Federal Tax', 'IRS USATAXPYMT', 0, 0, { online: true }),
  m('medicare', 'Medicare', 'Health Insurance', 'CMS MEDICARE PREMIUM', 0, 0, { online: true }),
  m('tuition', 'State University', 'Tuition', 'STATE UNIV BURSAR TUITION', 0, 0, { online: true }),
  m('ondeck', 'OnDeck Capital', 'Loan Payment', 'ONDECK CAPITAL LOAN PMT', 0, 0, { online: true }),
];

export const MERCHANTS: ReadonlyMap<string, Merchant> = new Map(MERCHANT_LIST.map((x) => [x.key, x]));

export function merchant(key: string): Merchant {
  const found = MERCHANTS.get(key);
  if (!found) throw new Error(`Unknown merchant ${key}`);
  return found;
}

/** A weighted set of merchants that makes up a spending style. */
export interface SpendingMix {
  merchants: Merchant[];
  cumulativeWeights: number[];
  /** Weighted mean receipt in dollars: how many purchases a budget buys. */
  meanReceipt: number;
}

function mixOf(entries: Record<string, number>): SpendingMix {
  const merchants = Object.keys(entries).map(merchant);
  const weights = Object.values(entries);
  const total = weights.reduce((a, b) => a + b, 0);
  const meanReceipt = merchants.reduce((sum, x, i) => sum + (weights[i] as number) * (x.min + (x.max - x.min) / 3), 0) / total;
  return { merchants, cumulativeWeights: cumulative(weights), meanReceipt };
}

/** Spending styles, by name; profiles pick one per account. */
export const MIXES = {
  everyday: mixOf({
    safeway: 10,
    trader_joes: 6,
    costco: 2,
    target: 5,
    walgreens: 3,
    cvs: 2,
    home_depot: 1.5,
    petco: 1,
    starbucks: 9,
    peets: 3,
    chipotle: 5,
    mcdonalds: 3,
    subway: 2,
    sweetgreen: 3,
    olive_garden: 1.5,
    local_bistro: 2,
    sushi: 1.5,
    taproom: 2,
    doordash: 3,
    ubereats: 2,
    shell: 4,
    chevron: 3,
    uber: 2,
    lyft: 1,
    parking: 2,
    amazon: 6,
    amazon_mkt: 4,
    etsy: 1,
    best_buy: 0.7,
    apple_store: 2,
    nike: 0.6,
    old_navy: 1,
    barnes: 0.8,
    amc: 1,
    great_clips: 0.8,
    jiffy_lube: 0.3,
    dentist: 0.2,
    goodwill: 0.4,
  }),
  student: mixOf({
    campus_dining: 12,
    campus_books: 2,
    starbucks: 8,
    blue_bottle: 3,
    mcdonalds: 5,
    chipotle: 6,
    subway: 4,
    seven_eleven: 6,
    transit: 8,
    uber: 2,
    amazon_mkt: 4,
    target: 3,
    steam: 3,
    apple_store: 3,
    amc: 2,
    taproom: 3,
    venmo_out: 5,
    old_navy: 1.5,
    great_clips: 0.8,
    doordash: 3,
  }),
  heavy: mixOf({
    starbucks: 12,
    blue_bottle: 8,
    peets: 5,
    seven_eleven: 9,
    transit: 12,
    uber: 6,
    lyft: 4,
    parking: 3,
    sweetgreen: 7,
    chipotle: 6,
    subway: 4,
    mcdonalds: 3,
    doordash: 6,
    ubereats: 5,
    amazon: 6,
    amazon_mkt: 6,
    apple_store: 4,
    safeway: 5,
    trader_joes: 5,
    whole_foods: 5,
    walgreens: 3,
    cvs: 2,
    taproom: 4,
    sushi: 2,
    local_bistro: 2,
    steam: 1,
    target: 2,
    etsy: 1,
  }),
  business: mixOf({
    staples: 6,
    usps: 6,
    fedex: 4,
    google_ads: 4,
    vistaprint: 1.5,
    aws: 3,
    restaurant_depot: 6,
    sysco: 3,
    costco: 3,
    home_depot: 2,
    shell: 3,
    amazon: 6,
    uber: 1.5,
    parking: 1.5,
    starbucks: 2,
  }),
  retiree: mixOf({
    safeway: 10,
    trader_joes: 5,
    costco: 3,
    walgreens: 5,
    cvs: 4,
    olive_garden: 3,
    local_bistro: 2,
    barnes: 2,
    home_depot: 2,
    target: 3,
    amazon: 4,
    shell: 4,
    great_clips: 1,
    dentist: 0.5,
    goodwill: 1,
    petco: 1,
    vet: 0.3,
  }),
} as const satisfies Record<string, SpendingMix>;

export type MixName = keyof typeof MIXES;

/** Large purchases that absorb a month of unusually high spending (a trip, a repair, new furniture). */
export const BIG_TICKETS = mixOf({
  delta: 3,
  united: 2,
  marriott: 2,
  hilton_london: 1,
  airbnb: 2,
  hertz: 1,
  appliance: 2,
  furniture: 2,
  laptop: 1.5,
  auto_repair: 1.5,
});
