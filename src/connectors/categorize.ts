/**
 * Categorisation of transactions from real sources (OFX, SimpleFIN, statement files), which send a description
 * and an amount but no category. The payee comes from payees.ts (the description without the bank's noise, a known
 * merchant by its usual name); the category from what kind of line it is, word rules about the bank's own business,
 * the merchant, word rules about the kind of place, then the type, with the money's direction (in or out) as the type
 * says it. What nothing says is "Uncategorized" (never a guess that looks certain). The test bank knows its merchants
 * and uses only bestRepresentation. docs/aggregation.md ("Categorisation") describes it and its measured accuracy.
 */
import type { TransactionCategory } from './categories.js';
import type { Categorization, TransactionType } from './connector.js';
import { fold, type Payee, payeeOf } from './payees.js';

const representations = new Map<string, string>();
const NON_ASCII_LETTER = /[\p{L}\p{M}]/u;
const NON_ASCII_DIGIT = /\p{N}/u;
const MEMO_TEXT_CHARS = 512;
/** The most of a description and memo that their representation is made from. */
const REPRESENTED_CHARS = 2048;

/**
 * Description and memo combined (their first 2,048 characters), upper case, without numbers, special characters or
 * repeated words: tokens are split at anything but letters (of any alphabet, accents kept: CAFÉ AMÉLIE), digits and
 * apostrophes, and tokens containing a digit (store numbers, order codes, amounts) are dropped. Memoised, since the
 * same texts recur month after month.
 */
export function bestRepresentation(description: string, memo?: string): string {
  // What categorising needs is at the start; a longer text (a CSV cell may hold 64 KB) would only cost time.
  const text = (memo ? `${description} ${memo}` : description).slice(0, REPRESENTED_CHARS);
  const known = representations.get(text);
  if (known !== undefined) return known;
  const words: string[] = [];
  // A set, not a search of the list: a long text of distinct words would otherwise cost the square of its length.
  const seen = new Set<string>();
  let word = '';
  let digit = false;
  const flush = () => {
    if (!digit && word.length >= 2 && !seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
    word = '';
    digit = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) word += String.fromCharCode(c & ~32);
    else if (c >= 48 && c <= 57) digit = true;
    else if (c >= 128) {
      // Letters of every alphabet are letters (CAFÉ, MÜLLER), not special characters.
      const ch = text[i]!;
      if (NON_ASCII_LETTER.test(ch)) word += ch.toUpperCase();
      else if (NON_ASCII_DIGIT.test(ch)) digit = true;
      else flush();
    } else if (c !== 39) flush();
  }
  flush();
  const result = words.join(' ');
  // Only short texts are kept: they are the ones that recur, and a long one would hold its whole length in memory.
  if (text.length <= MEMO_TEXT_CHARS) {
    if (representations.size > 20_000) representations.clear();
    representations.set(text, result);
  }
  return result;
}

type Direction = 'in' | 'out';

/**
 * Word rules over the description and memo (accents aside), first match wins; `in` and `out` rules hold only for
 * money in or out (pay is money in: a debit that says PAYROLL is the employer's own payroll). EARLY rules come
 * before a known merchant (the bank's own lines: fees, cash, pay, interest), LATE ones after it (the kind of shop
 * a name says, bills, taxes, transfers).
 */
const EARLY: RuleSource = [
  ['ATM Fee', undefined, 'ATM FEE, ATM FEES, ATM SURCHARGE'],
  ['Late Fee', undefined, 'LATE FEE, LATE PAYMENT FEE'],
  ['Finance Charge', 'out', 'INTEREST CHARGE, FINANCE CHARGE, PURCHASE INTEREST'],
  [
    'Service Fee',
    undefined,
    `SERVICE FEE, SERVICE CHARGE, MONTHLY FEE, MAINTENANCE FEE, ACCOUNT FEE, KONTOFUEHRUNG, KONTOFUHRUNG,
    KONTOFUHRUNGSGEBUHR, ENTGELT KONTOFUHRUNG, FRAIS TENUE, TENUE DE COMPTE, COTISATION CARTE, COMISION MANTENIMIENTO,
    KOSTEN ORANJEPAKKET, KOSTEN BETAALREKENING, KOSTEN BASISPAKKET`,
  ],
  [
    'Bank Fee',
    undefined,
    `OVERDRAFT, NSF, COURTESY PAY, FOREIGN TRANSACTION FEE, RETURNED ITEM, COMMISSION INTERVENTION,
    COMMISSION D INTERVENTION, FRAIS BANCAIRES, COMISION DESCUBIERTO, COMISION POR DESCUBIERTO`,
  ],
  ['Cash & ATM', 'out', 'ATM, CASH WITHDRAWAL, GELDAUTOMAT, BARGELDAUSZAHLUNG, BARGELD, RETRAIT DAB, CAJERO, REINTEGRO, RETIRADA EFECTIVO, GELDAUTOMAAT'],
  [
    'Paycheck',
    'in',
    `PAYROLL, SALARY, DIRECT DEP, DIR DEP, DIRECT DEPOSIT, PAYCHECK, WAGE, WAGES, GEHALT, LOHN, BEZUEGE,
    SALAIRE, SALARIS, LOON, NOMINA`,
  ],
  ['Interest Income', 'in', 'INTEREST, INTEREST PAID, INTEREST EARNED, INT EARNED, ZINSEN, HABENZINSEN, INTERETS, INTERESES, RENTE, CREDITRENTE'],
  ['Dividend & Cap Gains', 'in', 'DIVIDEND, DIVIDENDS, CAP GAIN, DIVIDENDE'],
  ['Income', 'in', 'KINDERGELD, KINDERBIJSLAG, ALLOCATIONS, UNEMPLOYMENT, ARBEITSLOSENGELD, UITKERING, PRESTACION, PENSION, RENTE DE RETRAITE'],
  ['Deposit', 'in', 'MOBILE DEPOSIT, REMOTE ONLINE DEPOSIT, REMISE CHEQUE, REMISE DE CHEQUE, DEPOSIT, BRANCH DEPOSIT'],
];

const LATE: RuleSource = [
  [
    'Credit Card Payment',
    undefined,
    `CARD PAYMENT, CREDIT CRD, CRD AUTOPAY, AUTOPAY PAYMENT, PAYMENT THANK YOU, EPAYMENT, E PAYMENT,
    KREDITKARTE, KREDITKARTENABRECHNUNG, CREDITCARD, TARJETA CREDITO`,
  ],
  [
    'Mortgage & Rent',
    'out',
    `RENT, MORTGAGE, MTG, MIETE, KALTMIETE, WARMMIETE, LOYER, HUUR, ALQUILER, HYPOTHEEK, HIPOTECA,
    HIPOTECARIO, PRET IMMOBILIER, BAUFINANZIERUNG`,
  ],
  ['Student Loan', 'out', 'STUDENT LOAN, STUDENT LN, STUDENTENLENING, BAFOEG'],
  [
    'Transfer',
    undefined,
    `TRANSFER, XFER, ZELLE, VENMO, BIZUM, TIKKIE, TRASPASO, UEBERWEISUNG, UBERWEISUNG, UMBUCHUNG,
    OVERBOEKING, SPAARREKENING, SPAARPOT, LIVRET, VIREMENT, REMBOURSEMENT, TERUGBETALING, SAVINGS, SPAREN, SPARPLAN`,
  ],
  ['Federal Tax', undefined, 'IRS, US TREASURY, USATAXPYMT'],
  ['State Tax', undefined, 'FRANCHISE TAX, STATE TAX, DEPT OF REVENUE, DEPARTMENT OF REVENUE'],
  ['Local Tax', undefined, 'COUNCIL TAX, PROPERTY TAX, GEMEENTELIJKE BELASTINGEN, GRUNDSTEUER, TAXE FONCIERE, TAXE D HABITATION, IBI'],
  [
    'Taxes',
    undefined,
    `TAX, TAXES, FINANZAMT, BELASTINGDIENST, IMPOT, IMPOTS, DGFIP, FINANCES PUBLIQUES, AEAT, AGENCIA TRIBUTARIA,
    IMPUESTOS, HMRC, STEUER, STEUERN`,
  ],
  ['Coffee Shops', undefined, 'COFFEE, ESPRESSO, ROASTERS, COFFEEHOUSE, KOFFIE, CAFETERIA, KAFFEE'],
  ['Fast Food', undefined, 'BURGER, BURGERS, FRIED CHICKEN, KEBAB, DONER, SNACKBAR, FRITURE'],
  [
    'Restaurants',
    undefined,
    `RESTAURANT, RESTAURANTE, RISTORANTE, BISTRO, BRASSERIE, GRILL, PIZZA, PIZZERIA, SUSHI, DINER,
    DELI, TRATTORIA, TAQUERIA, KITCHEN, LUNCHROOM, EETCAFE, GASTHAUS, GASTSTATTE, CAFE, TAPAS, STEAKHOUSE, RESTO`,
  ],
  ['Alcohol & Bars', undefined, 'TAVERN, PUB, BREWERY, BRAUHAUS, KNEIPE, CERVECERIA, BAR, LIQUOR, WINE, SPIRITS, WIJNHANDEL, CAVISTE'],
  [
    'Groceries',
    undefined,
    `GROCERY, GROCER, GROCERIES, SUPERMARKET, SUPERMARKT, SUPERMERCADO, SUPERMERCADOS, SUPERMARCHE, MARKET,
    MARKT, FARM STAND, FARMERS MARKET, BAKERY, BACKEREI, BAECKEREI, BOULANGERIE, BAKKERIJ, PANADERIA, BUTCHER, METZGEREI,
    BOUCHERIE, SLAGERIJ, CARNICERIA, FRUTERIA, EPICERIE, CORNER SHOP, BIOMARKT, HOFLADEN`,
  ],
  ['Pharmacy', undefined, 'PHARMACY, APOTHEKE, PHARMACIE, FARMACIA, APOTHEEK, DRUGSTORE, CHEMIST'],
  ['Gas & Fuel', undefined, 'FUEL, GAS STATION, TANKSTELLE, PETROL, STATION SERVICE, GASOLINERA, ESTACION DE SERVICIO, TANKSTATION'],
  [
    'Utilities',
    undefined,
    `ELECTRIC, ELECTRICITY, ENERGY, ENERGIE, STROM, WATER, UTILITIES, UTILITY, UTIL, POWER, GAS SUPPLY,
    STADTWERKE, WASSER, ELECTRICITE, AGUA, GAS NATURAL, DRINKWATER, WATERBEDRIJF`,
  ],
  ['Internet', undefined, 'INTERNET, BROADBAND, DSL, GLASFASER, FIBRE, FIBER, FIBRA'],
  ['Mobile Phone', undefined, 'WIRELESS, MOBILFUNK, MOBIEL, MOVIL, CELLULAR'],
  ['Gym', undefined, 'GYM, FITNESS, SPORTSCHOOL, FITNESSSTUDIO, GIMNASIO, SALLE DE SPORT'],
  ['Air Travel', undefined, 'AIRLINES, AIRLINE, AIRWAYS, AIR LINES, FLUGHAFEN'],
  ['Hotel', undefined, 'HOTEL, HOTELS, INN, MOTEL, HOSTEL, RESORT'],
  ['Parking', undefined, 'PARKING, PARKHAUS, PARKEREN, APARCAMIENTO, PARKGARAGE'],
  ['Rental Car & Taxi', undefined, 'TAXI, CAB, RIDESHARE, RENT A CAR'],
  ['Public Transportation', undefined, 'RAIL, RAILWAY, TRAIN, BAHN, METRO, TRANSIT, BUS, TRANSPORTE, FAHRKARTE, TRAM'],
  ['Dentist', undefined, 'DENTAL, DENTIST, ZAHNARZT, TANDARTS, DENTISTE, DENTISTA, ORTHODONTICS'],
  ['Doctor', undefined, 'DOCTOR, MEDICAL, CLINIC, ARZT, HUISARTS, MEDECIN, CLINICA, PHYSICIAN, HOSPITAL'],
  ['Veterinary', undefined, 'VET, VETERINARY, TIERARZT, DIERENARTS, VETERINAIRE, VETERINARIO, PET HOSP, ANIMAL HOSPITAL'],
  ['Pet Food & Supplies', undefined, 'PET, PETS, ZOOHANDLUNG, DIERENWINKEL'],
  ['Books', undefined, 'BOOKS, BOOKSHOP, BOOKSTORE, BUCHHANDLUNG, LIBRAIRIE, BOEKHANDEL, LIBRERIA'],
  ['Hair', undefined, 'SALON, BARBER, BARBERSHOP, HAIR, FRISEUR, COIFFEUR, KAPPER, PELUQUERIA'],
  ['Clothing', undefined, 'OUTFITTERS, CLOTHING, APPAREL, BOUTIQUE, FASHION, SHOES, SCHUHE'],
  ['Tuition', undefined, 'TUITION, UNIVERSITY, UNIV, COLLEGE, UNIVERSITAT, UNIVERSITE, UNIVERSIDAD'],
  ['Babysitter & Daycare', undefined, 'DAYCARE, CHILDCARE, KITA, CRECHE, KINDEROPVANG, KINDERDAGVERBLIJF, GUARDERIA'],
  ['Charity', undefined, 'DONATION, DONATIONS, SPENDE, DONATIVO, CHARITY, FOUNDATION, STIFTUNG'],
  ['Movies & DVDs', undefined, 'CINEMA, CINEMAS, KINO, BIOSCOOP, MOVIES, THEATRES'],
  ['Home Improvement', undefined, 'HARDWARE, BAUMARKT, BOUWMARKT, FERRETERIA, BRICOLAGE'],
  ['Shipping', undefined, 'POST OFFICE, SHIPPING, POSTAGE'],
  ['Auto & Transport', undefined, 'TOLL, TOLLS, MAUT, PEAJE, PEAGE'],
  ['Loan Payment', 'out', 'LOAN, LENING, KREDIT, PRESTAMO, PRET'],
  ['Fees & Charges', 'out', 'FEE, FEES, GEBUEHR, GEBUHR, FRAIS, COMISION, COMMISSION, KOSTEN'],
];

type RuleSource = ReadonlyArray<readonly [TransactionCategory, Direction | undefined, string]>;

interface Rules {
  categories: Array<{ category: TransactionCategory; when: Direction | undefined }>;
  /** Phrases by their first word: the phrase's words and the index of its rule. */
  byFirst: Map<string, Array<{ words: string[]; rule: number }>>;
}

function compile(source: RuleSource): Rules {
  const rules: Rules = { categories: [], byFirst: new Map() };
  source.forEach(([category, when, list], rule) => {
    rules.categories.push({ category, when });
    for (const phrase of list.split(',')) {
      const words = phrase.trim().split(/\s+/);
      const entry = { words, rule };
      const known = rules.byFirst.get(words[0]!);
      if (known) known.push(entry);
      else rules.byFirst.set(words[0]!, [entry]);
    }
  });
  return rules;
}

const EARLY_RULES = compile(EARLY);
const LATE_RULES = compile(LATE);

/** Insurance: a word that says insurance, and one that says of what (KFZ-VERSICHERUNG, ZORGVERZEKERING, AUTO INSURANCE). */
const INSURANCE_WORD =
  /(INSURANCE|VERSICHERUNG|VERSICHERUNGEN|VERZEKERING|VERZEKERINGEN|ASSURANCE|ASSURANCES|SEGURO|SEGUROS|KRANKENKASSE|MUTUELLE|HEALTHCARE)$/;
const INSURANCE_KINDS: ReadonlyArray<readonly [TransactionCategory, RegExp]> = [
  ['Auto Insurance', /^(AUTO|KFZ|CAR|MOTOR|AUTOMOVIL|AUTOVERZEKERING|VEHICLE)/],
  ['Health Insurance', /^(HEALTH|KRANKEN|ZORG|SALUD|SANTE|MUTUELLE|MEDICAL|DENTAL)/],
  ['Life Insurance', /^(LIFE|LEBENS|VIE|VIDA|LEVENS)/],
  ['Home Insurance', /^(HOME|HAUSRAT|HABITATION|HOGAR|WOON|INBOEDEL|HOMEOWNERS|RENTERS|WOHNGEBAEUDE)/],
];

/** The first rule (in order) that one of the words starts a phrase of, and that holds for the direction. */
function firstRule(rules: Rules, words: readonly string[], direction: Direction | undefined): TransactionCategory | undefined {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < words.length; i++) {
    const entries = rules.byFirst.get(words[i]!);
    if (!entries) continue;
    for (const { words: phrase, rule } of entries) {
      if (rule >= best) continue;
      const when = rules.categories[rule]!.when;
      if (when && direction && when !== direction) continue;
      let all = i + phrase.length <= words.length;
      for (let k = 1; k < phrase.length && all; k++) all = words[i + k] === phrase[k];
      if (all) best = rule;
    }
  }
  return best === Number.POSITIVE_INFINITY ? undefined : rules.categories[best]!.category;
}

function insuranceOf(words: readonly string[]): TransactionCategory | undefined {
  if (!words.some((w) => INSURANCE_WORD.test(w))) return undefined;
  for (const [category, kind] of INSURANCE_KINDS) if (words.some((w) => kind.test(w))) return category;
  return undefined;
}

/** Categories that follow from the transaction type alone, when nothing else said one. */
const BY_TYPE: Partial<Record<TransactionType, TransactionCategory>> = {
  atm: 'Cash & ATM',
  cash: 'Cash & ATM',
  check: 'Check',
  directDeposit: 'Paycheck',
  dividend: 'Dividend & Cap Gains',
  fee: 'Fees & Charges',
  serviceCharge: 'Service Fee',
  interest: 'Interest Income',
  transfer: 'Transfer',
};

/** Money in or out as the type says; undefined where a type is used both ways. */
const DIRECTION: Partial<Record<TransactionType, Direction>> = {
  credit: 'in',
  deposit: 'in',
  directDeposit: 'in',
  dividend: 'in',
  interest: 'in',
  debit: 'out',
  pointOfSale: 'out',
  atm: 'out',
  check: 'out',
  directDebit: 'out',
  fee: 'out',
  serviceCharge: 'out',
  payment: 'out',
  repeatPayment: 'out',
};

/** The category a real source's transaction most plausibly has, or "Uncategorized". */
export function categoryOf(description: string, memo: string | undefined, type: TransactionType): TransactionCategory {
  return categoryFrom(bestRepresentation(description, memo), payeeOf(description, memo), type);
}

/**
 * The category from the line's kind (cash, a check), its words about the bank's own business, the merchant, the
 * words that say what kind of place it is, then the type. A refund is money in at a merchant: it keeps the
 * merchant's category.
 */
function categoryFrom(represented: string, payee: Payee, type: TransactionType): TransactionCategory {
  if (payee.category) return payee.category;
  const words = fold(represented).split(' ');
  const direction = DIRECTION[type];
  return (
    firstRule(EARLY_RULES, words, direction) ??
    payee.merchant?.category ??
    insuranceOf(words) ??
    firstRule(LATE_RULES, words, direction) ??
    BY_TYPE[type] ??
    'Uncategorized'
  );
}

/** The payee as people read it: without channel words, codes, numbers, places and legal forms, in a readable case. */
export function payeeName(description: string, memo?: string): string {
  return payeeOf(description, memo).name;
}

/** The categorization block of a transaction from a real source. `country` is ISO 3166-1 alpha-3. */
export function categorize(description: string, memo: string | undefined, type: TransactionType, country = 'USA'): Categorization {
  // Made once: a long text is not memoised, and category and representation come from the same one.
  const represented = bestRepresentation(description, memo);
  const payee = payeeOf(description, memo);
  return {
    normalizedPayeeName: payee.name,
    category: categoryFrom(represented, payee, type),
    bestRepresentation: represented,
    country,
  };
}
