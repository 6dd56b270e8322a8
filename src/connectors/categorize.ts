/**
 * Categorisation of transactions from real sources (OFX, SimpleFIN, statement files), which send a description
 * and an amount but no category. Keyword rules over the best representation pick a category; what no rule
 * matches is "Uncategorized" (never a guess that looks certain). The test bank knows its merchants and does not
 * use the rules, only bestRepresentation.
 */
import type { TransactionCategory } from './categories.js';
import type { Categorization, TransactionType } from './connector.js';

const representations = new Map<string, string>();
const MEMO_TEXT_CHARS = 512;
/** The most of a description and memo that their representation is made from. */
const REPRESENTED_CHARS = 2048;

/**
 * Description and memo combined (their first 2,048 characters), upper case, without numbers, special characters or
 * repeated words: tokens
 * are split at anything but letters, digits and apostrophes, and tokens containing a digit (store numbers,
 * order codes, amounts) are dropped. Memoised, since the same texts recur month after month.
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
    else if (c !== 39) flush();
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

/** Word rules, first match wins; each word is matched as a whole word of the best representation. */
const RULES: ReadonlyArray<readonly [TransactionCategory, readonly string[]]> = [
  ['ATM Fee', ['ATM FEE']],
  ['Cash & ATM', ['ATM', 'CASH WITHDRAWAL']],
  ['Paycheck', ['PAYROLL', 'SALARY', 'DIRECT DEP', 'DIR DEP', 'PAYCHECK']],
  ['Interest Income', ['INTEREST PAID', 'INTEREST EARNED', 'INT EARNED', 'INTEREST CREDIT']],
  ['Dividend & Cap Gains', ['DIVIDEND', 'CAP GAIN']],
  ['Credit Card Payment', ['CARD PAYMENT', 'AUTOPAY', 'PAYMENT THANK YOU', 'PAYMENT RECEIVED']],
  ['Mortgage & Rent', ['MORTGAGE', 'RENT']],
  ['Transfer', ['TRANSFER', 'XFER', 'ZELLE', 'VENMO']],
  ['Service Fee', ['SERVICE FEE', 'MONTHLY FEE', 'MAINTENANCE FEE']],
  ['Bank Fee', ['OVERDRAFT', 'NSF', 'FEE']],
  ['Groceries', ['GROCERY', 'SUPERMARKET', 'KROGER', 'SAFEWAY', 'WHOLE FOODS', 'TRADER JOE', 'ALDI', 'PUBLIX']],
  ['Coffee Shops', ['STARBUCKS', 'COFFEE', 'DUNKIN']],
  ['Fast Food', ['MCDONALD', 'BURGER', 'TACO BELL', 'WENDY', 'CHIPOTLE', 'SUBWAY']],
  ['Restaurants', ['RESTAURANT', 'GRILL', 'PIZZA', 'CAFE', 'DINER', 'SUSHI']],
  ['Gas & Fuel', ['SHELL', 'EXXON', 'CHEVRON', 'MOBIL', 'FUEL', 'GAS STATION', 'SUNOCO']],
  ['Rental Car & Taxi', ['UBER', 'LYFT', 'TAXI']],
  ['Air Travel', ['AIRLINES', 'AIRWAYS', 'DELTA AIR', 'UNITED AIR']],
  ['Hotel', ['HOTEL', 'MARRIOTT', 'HILTON', 'AIRBNB']],
  ['Streaming Services', ['NETFLIX', 'SPOTIFY', 'HULU', 'DISNEY PLUS']],
  ['Mobile Phone', ['VERIZON', 'T MOBILE', 'AT&T', 'WIRELESS']],
  ['Internet', ['COMCAST', 'XFINITY', 'INTERNET']],
  ['Utilities', ['ELECTRIC', 'WATER', 'UTILITY', 'UTILITIES', 'ENERGY']],
  ['Pharmacy', ['PHARMACY', 'CVS', 'WALGREENS']],
  ['Shopping', ['AMAZON', 'TARGET', 'WALMART', 'COSTCO', 'EBAY']],
  ['Gym', ['GYM', 'FITNESS']],
  ['Federal Tax', ['IRS', 'US TREASURY']],
  ['Check', ['CHECK']],
];

/** Categories that follow from the transaction type alone, when no word rule matched. */
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

function hasPhrase(text: string, phrase: string): boolean {
  let at = text.indexOf(phrase);
  while (at >= 0) {
    const before = at === 0 || text[at - 1] === ' ';
    const end = at + phrase.length;
    // A phrase may end a word stem ("MCDONALD" in "MCDONALD'S"), but never start inside one.
    if (before && (end === text.length || text[end] === ' ' || text[end] === "'" || phrase.length >= 5)) return true;
    at = text.indexOf(phrase, at + 1);
  }
  return false;
}

/** The category a real source's transaction most plausibly has, or "Uncategorized". */
export function categoryOf(description: string, memo: string | undefined, type: TransactionType): TransactionCategory {
  return categoryOfText(bestRepresentation(description, memo), type);
}

/** The category of a text already reduced by bestRepresentation. */
function categoryOfText(text: string, type: TransactionType): TransactionCategory {
  for (const [category, phrases] of RULES) if (phrases.some((p) => hasPhrase(text, p))) return category;
  return BY_TYPE[type] ?? 'Uncategorized';
}

/** The payee as people read it: the description's words in title case, without numbers and codes. */
export function payeeName(description: string): string {
  const words = bestRepresentation(description).split(' ').filter(Boolean).slice(0, 6);
  return words.map((w) => w[0] + w.slice(1).toLowerCase()).join(' ');
}

/** The categorization block of a transaction from a real source. `country` is ISO 3166-1 alpha-3. */
export function categorize(description: string, memo: string | undefined, type: TransactionType, country = 'USA'): Categorization {
  // Made once: a long text is not memoised, and category and representation come from the same one.
  const represented = bestRepresentation(description, memo);
  return {
    normalizedPayeeName: payeeName(description),
    category: categoryOfText(represented, type),
    bestRepresentation: represented,
    country,
  };
}
