/**
 * The payee of a statement line as a person writes it: "CHECKCARD 0915 CAFÉ AMÉLIE NEW ORLEANS LA 2443..." is
 * "Café Amélie", "SQ *BLUE BOTTLE COFFEE Oakland CA" is "Blue Bottle Coffee", "ACME CORP PAYROLL PPD ID: 1234" is
 * "Acme". The line is split into words once; the channel words in front (card, point of sale, direct debit, in
 * several languages), card numbers, dates, references, processors ("SQ *", "TST*", "PAYPAL *"), legal forms and
 * trailing places are left out, a known merchant is named as it is usually written, and the rest is put in a
 * readable case. Linear in the text: the line is cut to its first characters and no pattern backtracks.
 */
import type { TransactionCategory } from './categories.js';
import { MERCHANTS, type Merchant } from './merchants.js';

/** The most of a description a payee is looked for in: a name is at the start, and a 64 KB cell would only cost. */
export const PAYEE_CHARS = 512;
/** A payee is never longer than this many words. */
const MAX_WORDS = 6;
/** The words of a line read for its payee: a payee is at the start, and its details follow within a few words. */
const MAX_LINE_WORDS = 48;
/** How far into the line a known merchant is looked for. */
const MERCHANT_WINDOW = 24;

export interface Word {
  /** As written. */
  raw: string;
  /** Upper case without accents, apostrophes, dots or hyphens: what the tables are written in. */
  key: string;
  digit: boolean;
  /** A web address ("AMZN.COM", "Lieferando.de"); its key is the name before the first dot. */
  domain: boolean;
  /** The marks between this word and the next, spaces left out ("*", ",", "/", ":"). */
  after: string;
  /** The key of the part before a hyphen ("WMATA" of WMATA-SMARTRIP), if there is a hyphen. */
  head?: string;
}

const TOP_LEVEL = new Set(['COM', 'NET', 'ORG', 'INFO', 'DE', 'NL', 'FR', 'ES', 'UK', 'CO', 'IO', 'BE', 'IT', 'EU', 'US', 'CA', 'APP', 'AT', 'CH']);
const LETTER_OR_DIGIT = /[\p{L}\p{M}\p{N}]/u;
const MARKS = /\p{M}/gu;

function isWordChar(c: string): boolean {
  const code = c.charCodeAt(0);
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return LETTER_OR_DIGIT.test(c);
}

/** Upper case without accents (ß is SS, as upper case writes it). */
export function fold(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toUpperCase();
}

function makeWord(raw: string): Word {
  let digit = false;
  let ascii = true;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 48 && c <= 57) digit = true;
    else if (c >= 128) ascii = false;
  }
  // Most words are ASCII: no accents to take off.
  const folded = ascii ? raw.toUpperCase() : fold(raw);
  const dot = folded.indexOf('.');
  const domain = dot > 0 && TOP_LEVEL.has(folded.slice(folded.lastIndexOf('.') + 1)) && !/^[A-Z]\./.test(folded);
  const base = domain ? folded.slice(0, dot) : folded;
  const word: Word = { raw, key: base.replace(/['’.-]/g, ''), digit, domain, after: '' };
  const hyphen = base.indexOf('-');
  if (hyphen > 0) word.head = base.slice(0, hyphen).replace(/['’.]/g, '');
  return word;
}

/**
 * The words of a line. Apostrophes, hyphens, dots and ampersands inside a word keep it whole (JOE'S, WAL-MART,
 * AMZN.COM, AT&T); a plus at a word's end is part of it (CANAL+); a lone & or + is a word of its own.
 */
export function wordsOf(text: string, most = MAX_LINE_WORDS): Word[] {
  const words: Word[] = [];
  let current = '';
  const flush = () => {
    if (current !== '') words.push(makeWord(current));
    current = '';
  };
  const mark = (c: string) => {
    const last = words[words.length - 1];
    if (last && last.after.length < 4) last.after += c;
  };
  for (let i = 0; i < text.length && words.length < most; i++) {
    const c = text[i]!;
    if (isWordChar(c)) current += c;
    else if (current !== '' && "'’-.&".includes(c) && i + 1 < text.length && isWordChar(text[i + 1]!)) current += c;
    // An initial keeps its dot ("J. de Vries").
    else if (c === '.' && current.length === 1 && current !== current.toLowerCase() && text[i + 1] === ' ') {
      current += c;
      flush();
    } else if (c === '+' && current !== '' && !(i + 1 < text.length && isWordChar(text[i + 1]!))) {
      current += c;
      flush();
    } else {
      flush();
      if (c === '&' || c === '+') words.push(makeWord(c));
      else if (c !== ' ' && c !== '\t') mark(c);
    }
  }
  flush();
  return words;
}

/** Merchants by the key of their first word. */
const BY_FIRST = new Map<string, Merchant[]>();
for (const m of MERCHANTS) {
  const list = BY_FIRST.get(m.words[0]!);
  if (list) list.push(m);
  else BY_FIRST.set(m.words[0]!, [m]);
}

export interface Found {
  merchant: Merchant;
  at: number;
}

/** The known merchant named in words[from...]: the longest name, the earliest of equally long ones. */
export function findMerchant(words: readonly Word[], from: number): Found | undefined {
  let best: Found | undefined;
  const end = Math.min(words.length, from + MERCHANT_WINDOW);
  for (let i = from; i < end; i++) {
    const word = words[i]!;
    const candidates = BY_FIRST.get(word.key);
    if (candidates)
      for (const m of candidates) {
        if (m.first && i !== from) continue;
        if (best && m.words.length <= best.merchant.words.length) continue;
        if (i + m.words.length > words.length) continue;
        let all = true;
        for (let k = 1; k < m.words.length && all; k++) all = sameWord(words[i + k]!.key, m.words[k]!, k === m.words.length - 1);
        if (all) best = { merchant: m, at: i };
      }
    // WMATA-SMARTRIP, dm-drogerie: a one-word merchant before a hyphen.
    if (!best && word.head)
      for (const m of BY_FIRST.get(word.head) ?? [])
        if (m.words.length === 1 && (!m.first || i === from)) {
          best = { merchant: m, at: i };
          break;
        }
  }
  return best;
}

/** A word of a merchant's name; the last may have a number glued to it ("AMERICAN AIR0012345678901"). */
function sameWord(key: string, word: string, last: boolean): boolean {
  if (key === word) return true;
  if (!last || key.length <= word.length || !key.startsWith(word)) return false;
  for (let i = word.length; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Phrases as lists of keys, matched at a position of a word list. */
function phrases(list: string): string[][] {
  return list
    .trim()
    .split(/\s*,\s*/)
    .map((p) => p.split(' '));
}

function phraseAt(words: readonly Word[], at: number, phrase: readonly string[]): boolean {
  if (at + phrase.length > words.length) return false;
  for (let k = 0; k < phrase.length; k++) if (words[at + k]!.key !== phrase[k]) return false;
  return true;
}

/**
 * What banks put in front of the payee: channels, card and transfer words, in English, German, French, Dutch and
 * Spanish. Longer phrases first, so that the longest one is taken.
 */
const LEADING = phrases(`
  PURCHASE RETURN AUTHORIZED ON, RECURRING PAYMENT AUTHORIZED ON, PURCHASE AUTHORIZED ON, CARD PURCHASE WITH PIN,
  DEBIT CARD PURCHASE, POS PURCHASE NONPIN, POS PURCHASE, POS DEBIT, POS REFUND, CARD PURCHASE, CHECK CARD, CHECKCARD,
  DEBIT CARD, VISA DEBIT, DEBIT PURCHASE, PURCHASE, POS, NONPIN, NON PIN, BILL PAYMENT, BILL PAY, ONLINE PAYMENT TO,
  PREAUTHORIZED DEBIT, ACH DEBIT, ACH CREDIT, ACH, DIRECT DEBIT, DIRECT DEPOSIT, DEPOSIT FROM, ELECTRONIC PAYMENT,
  PAYROLL, SALARY, RECURRING, INTERNATIONAL, KARTENZAHLUNG GIROCARD, KARTENZAHLUNG, GIROCARD, LASTSCHRIFT,
  FOLGELASTSCHRIFT, ERSTLASTSCHRIFT, SEPA LASTSCHRIFT, SEPA, UEBERWEISUNG, GUTSCHRIFT, DAUERAUFTRAG, LOHN GEHALT,
  GEHALT, LOHN, ENTGELT, ECHTZEIT, PAIEMENT PAR CARTE, PAIEMENT CB, PAIEMENT, CARTE, CB, PRLV SEPA, PRLV, PRELEVEMENT,
  VIR SEPA RECU DE, VIR SEPA RECU, VIR SEPA EMIS A, VIR SEPA EMIS, VIR INST RECU DE, VIR INST RECU, VIR INST, VIR SEPA,
  VIREMENT EMIS VERS, VIREMENT RECU DE, VIREMENT SALAIRE, VIREMENT, VIR, SALAIRE, AVOIR CB, AVOIR, ECHEANCE, DE, A,
  BEA, APPLE PAY, GOOGLE PAY, BETAALAUTOMAAT, BETAALPAS, INCASSO, OVERBOEKING, IDEAL, SALARIS, COMPRA TARJ,
  COMPRA TARJETA, COMPRA INTERNET, COMPRA EN, COMPRA, PAGO CON TARJETA EN, PAGO CON TARJETA, PAGO, TARJETA,
  ADEUDO RECIBO, ADEUDO, RECIBO, DEVOLUCION COMPRA, DEVOLUCION, ABONO NOMINA, NOMINA,
  TRANSFERENCIA RECIBIDA DE, TRANSFERENCIA A FAVOR DE, TRANSFERENCIA DE, TRANSFERENCIA, TRASPASO A, TRASPASO, CUOTA,
  RECARGA, EN
`);
const LEADING_BY_FIRST = new Map<string, string[][]>();
for (const p of LEADING) {
  const list = LEADING_BY_FIRST.get(p[0]!);
  if (list) list.push(p);
  else LEADING_BY_FIRST.set(p[0]!, [p]);
}
for (const list of LEADING_BY_FIRST.values()) list.sort((a, b) => b.length - a.length);

/** Leading words that are only channel words after another ("VIR SEPA RECU /DE ACME"), not at the start (De Bijenkorf). */
const AFTER_LEADING = new Set(['DE', 'A', 'EN']);

/** Processors a merchant's name follows, with a star: "SQ *BLUE BOTTLE", "TST* SHAKE SHACK", "PAYPAL *SPOTIFY". */
const PROCESSORS = new Set([
  'SQ',
  'SQU',
  'TST',
  'PAYPAL',
  'PP',
  'DD',
  'SP',
  'GOOGLE',
  'IN',
  'PY',
  'FSP',
  'WPY',
  'SMP',
  'CKO',
  'ZTL',
  'SUMUP',
  'IZ',
  'PADDLE',
  'FS',
]);

/** Words after which the rest of the line is detail, not the payee (once a payee word has been seen). */
const STOPS = new Set(
  `DES PPD WEB CCD TEL ID INDN CO ENTRY ORIG TRACE CONCEPTO MOTIF MOTIFS PASNR PASVOLGNR VIA BETAALPAS ON AUTOPAY
  BILLPAY PAYROLL SALARY SALARIS SALAIRE GEHALT LOHN NOMINA WAGE MANDATSREF GLAEUBIGER EREF KREF MREF IBAN BIC SVWZ
  ABWA
  RECURRING PURCHASE DEBIT CREDIT PMT PMTS PAYMENT PAYMENTS PYMT PYMNTS EPAYMENT BILL SAGT`
    .split(/\s+/)
    .filter(Boolean),
);
/** Words that end the payee when a number or a colon follows them ("CARD 4417", "TRANSACTION#: 123"). */
const SOFT_STOPS = new Set(['TRANSACTION', 'REF', 'REFERENCE', 'NR', 'NO', 'N', 'NUM', 'NUMBER', 'TERM', 'CARD', 'KARTE', 'CARTE', 'PAS', 'MANDAT', 'X']);

/** Legal forms and other words that end a name without being part of how people say it. */
const TRAILING = new Set(
  `INC INCORPORATED LLC LLP LTD LIMITED CORP CORPORATION CO COMPANY PLC GMBH MBH AG KG OHG UG EV SE BV NV VOF SA SAS
  SARL SCA SNC SL SLU SAU SRL SPA AB AS OY ET CIE & + US USA GB NL FR ES DE IE COM DD BCC SO RENT`
    .split(/\s+/)
    .filter(Boolean),
);

const MONTHS = new Set(
  `JAN FEB MAR APR MAY JUN JUL AUG SEP SEPT OCT NOV DEC JANUARY FEBRUARY MARCH APRIL JUNE JULY AUGUST SEPTEMBER
  OCTOBER NOVEMBER DECEMBER JANUAR FEBRUAR MAERZ MAI JUNI JULI OKTOBER DEZEMBER JANVIER FEVRIER MARS AVRIL JUIN
  JUILLET AOUT SEPTEMBRE OCTOBRE NOVEMBRE DECEMBRE JANUARI FEBRUARI MAART MEI AUGUSTUS ENERO FEBRERO MARZO ABRIL
  MAYO JUNIO JULIO AGOSTO SEPTIEMBRE OCTUBRE NOVIEMBRE DICIEMBRE`
    .split(/\s+/)
    .filter(Boolean),
);

/** US states and Canadian provinces, which end a card line after the city. */
const REGIONS = new Set(
  `AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR
  PA RI SC SD TN TX UT VT VA WA WV WI WY AB BC MB NB NL NS ON PE QC SK`
    .split(/\s+/)
    .filter(Boolean),
);
/** First words of two-word US city names ("NEW YORK", "SAN JOSE"), so that both go with the state. */
const CITY_FIRST = new Set([
  'NEW',
  'SAN',
  'LOS',
  'LAS',
  'SANTA',
  'FORT',
  'FT',
  'ST',
  'SAINT',
  'PALO',
  'SALT',
  'EL',
  'PORT',
  'WEST',
  'EAST',
  'NORTH',
  'SOUTH',
  'BATON',
  'CORPUS',
  'KANSAS',
  'OKLAHOMA',
  'JERSEY',
  'LONG',
  'GRAND',
  'CEDAR',
  'BEVERLY',
  'COLORADO',
  'DES',
  'SIOUX',
  'CAPE',
  'MOUNT',
  'MT',
  'LAKE',
  'PALM',
  'CHULA',
  'DALY',
  'BOWLING',
  'CHAPEL',
  'ANN',
  'LITTLE',
  'ROUND',
  'WHITE',
  'GREEN',
  'DAVIE',
]);

/** Words kept in lower case inside a name. */
const PARTICLES = new Set([
  'OF',
  'THE',
  'AND',
  'DE',
  'DU',
  'DES',
  'LA',
  'LE',
  'LES',
  'VAN',
  'DER',
  'DEN',
  'HET',
  'AM',
  'IM',
  'Y',
  'DEL',
  'ET',
  'EN',
  'VON',
  'D',
  'DA',
  'DI',
  'AU',
  'AUX',
]);

const VOWEL = /[AEIOUY]/;

function capitalise(part: string): string {
  const lower = part.toLowerCase();
  const apostrophe = lower.search(/['’]/);
  // O'BRIEN and L'OCCITANE capitalise after the apostrophe; JOE'S does not.
  if (apostrophe === 1 && lower.length > 3) return lower[0]!.toUpperCase() + lower[1] + lower.charAt(2).toUpperCase() + lower.slice(3);
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}

/** A word in a readable case: as written when the bank wrote mixed case, else title case, acronyms kept. */
function readable(word: Word, first: boolean, mixedLine: boolean): string {
  const raw = word.raw;
  if (mixedLine && raw !== raw.toUpperCase()) return raw;
  if (!first && PARTICLES.has(word.key)) return raw.toLowerCase();
  // No vowel (BCC, KPN, TJ) or an ampersand (AT&T): an acronym.
  if (raw.includes('&') || (!VOWEL.test(word.key) && /[A-Z]/.test(word.key))) return raw.toUpperCase();
  return raw.split('-').map(capitalise).join('-');
}

export function titleCase(words: readonly Word[], mixedLine: boolean): string {
  return words
    .slice(0, MAX_WORDS)
    .map((w, i) => readable(w, i === 0, mixedLine))
    .join(' ');
}

function hasLower(text: string): boolean {
  return text !== text.toUpperCase();
}

/** Where the payee starts: after the channel words, dates, card numbers and a processor. */
export function payeeStart(words: readonly Word[], toTheEnd = false): number {
  let at = 0;
  for (let guard = 0; at < words.length && guard < 32; guard++) {
    const w = words[at]!;
    // A number (unless it begins a merchant's name: 7-ELEVEN, 1&1), or a number's label (NR:, X 4521).
    if ((w.digit && !BY_FIRST.has(w.key)) || softStop(words, at)) {
      at++;
      continue;
    }
    const leading = at > 0 || !AFTER_LEADING.has(w.key) ? LEADING_BY_FIRST.get(w.key)?.find((p) => phraseAt(words, at, p)) : undefined;
    if (leading && (toTheEnd || at + leading.length < words.length)) {
      at += leading.length;
      continue;
    }
    if (PROCESSORS.has(w.key) && w.after.includes('*') && (toTheEnd || at + 1 < words.length)) {
      at++;
      continue;
    }
    break;
  }
  return at;
}

function softStop(words: readonly Word[], i: number): boolean {
  const w = words[i]!;
  return SOFT_STOPS.has(w.key) && (/[:#.]/.test(w.after) || words[i + 1]?.digit === true);
}

/** DIRECT DEP, DIR DEP, DIRECT DEPOSIT: pay, not a name (though "Energie Direct" is one). */
function directDeposit(words: readonly Word[], i: number): boolean {
  const w = words[i]!.key;
  return (w === 'DIRECT' || w === 'DIR') && (words[i + 1]?.key.startsWith('DEP') ?? false);
}

/** The words of the payee from `start`: up to a detail, a reference, a number or a comma, without a trailing place. */
export function payeeWords(words: readonly Word[], start: number): Word[] {
  const kept: Word[] = [];
  for (let i = start; i < words.length && kept.length < MAX_WORDS + 4; i++) {
    const w = words[i]!;
    if (kept.length > 0 && (w.digit || w.domain || STOPS.has(w.key) || softStop(words, i) || directDeposit(words, i))) break;
    if (w.digit || MONTHS.has(w.key)) continue;
    kept.push(w);
    // MERCHANT*ref, NAME, CITY, NAME - PLACE, NAME/more, NAME "addition": what follows is no longer the name.
    if (/[*,/(\-"]/.test(w.after)) break;
  }
  // A place at the end of a US card line: "... OAKLAND CA", "... NEW YORK NY".
  const last = kept[kept.length - 1];
  if (kept.length >= 3 && last && REGIONS.has(last.key) && last.raw.length === 2) {
    kept.pop();
    const before = kept[kept.length - 2];
    kept.pop();
    if (kept.length >= 2 && before && CITY_FIRST.has(before.key)) kept.pop();
  }
  while (kept.length > 1 && TRAILING.has(kept[kept.length - 1]!.key)) kept.pop();
  return kept;
}

/** The people in "Zelle payment to X", "BIZUM ENVIADO A X": the name words after the direction word. */
function personAfter(words: readonly Word[], from: number, directions: ReadonlySet<string>): Word[] | undefined {
  for (let i = from; i < Math.min(words.length, from + 4); i++) {
    if (!directions.has(words[i]!.key)) continue;
    const name: Word[] = [];
    for (let k = i + 1; k < words.length && name.length < 4; k++) {
      const w = words[k]!;
      if (w.digit || STOPS.has(w.key) || w.key === 'CONCEPTO') break;
      name.push(w);
    }
    return name.length > 0 ? name : undefined;
  }
  return undefined;
}

const TO_FROM = new Set(['TO', 'FROM', 'A', 'DE', 'AAN', 'VAN', 'AN', 'VON']);

export interface Payee {
  name: string;
  /** The known merchant it names, if any. */
  merchant?: Merchant;
  /** The category that the kind of line says (cash, a check, a transfer), if it says one. */
  category?: TransactionCategory;
}

/** Lines that are the bank's own (cash, checks, transfers between accounts), named by what they are. */
function bankLine(words: readonly Word[], mixed: boolean): Payee | undefined {
  const has = (key: string) => words.some((w) => w.key === key);
  const first = words[0]?.key ?? '';
  if (has('THANK') && words.some((w) => w.key.startsWith('PAYMENT'))) return { name: 'Payment Thank You', category: 'Credit Card Payment' };
  if (has('ATM') && words.some((w) => w.key.startsWith('FEE'))) return { name: has('REFUND') ? 'ATM Fee Refund' : 'ATM Fee', category: 'ATM Fee' };
  if (has('ATM') && words.some((w) => w.key.startsWith('WITHDR'))) return { name: 'ATM Withdrawal', category: 'Cash & ATM' };
  if (first === 'CASH' && words[1]?.key === 'WITHDRAWAL') return { name: 'Cash Withdrawal', category: 'Cash & ATM' };
  if (has('OVERDRAFT') && has('FEE')) return { name: 'Overdraft Fee', category: 'Bank Fee' };
  if (first === 'BARGELDAUSZAHLUNG' || first === 'GELDAUTOMAT' || (first === 'GA' && words[1]?.key.startsWith('NR')))
    return { name: 'Geldautomat', category: 'Cash & ATM' };
  if (first === 'GEA' || first === 'GELDAUTOMAAT') return { name: 'Geldautomaat', category: 'Cash & ATM' };
  if (first === 'RETRAIT' && has('DAB')) return { name: 'Retrait DAB', category: 'Cash & ATM' };
  if ((first === 'RETIRADA' || first === 'REINTEGRO') && (has('CAJERO') || has('EFECTIVO'))) return { name: 'Retirada de efectivo', category: 'Cash & ATM' };
  // CHECK 1042, CHECK # 3071, CHEQUE 000118: the number is what tells checks apart.
  if ((first === 'CHECK' || first === 'CHEQUE' || first === 'CHQ' || first === 'SCHECK') && words.length <= 4) {
    const number = words.slice(1).find((w) => /^\d+$/.test(w.key));
    const word = readable(words[0]!, true, mixed);
    return { name: number ? `${word} ${number.key.replace(/^0+(?=\d)/, '')}` : word, category: 'Check' };
  }
  // ONLINE TRANSFER TO SAV ...4821: money between one's own accounts.
  const transfer = words.findIndex((w) => w.key === 'TRANSFER' || w.key === 'XFER');
  if (transfer >= 0 && transfer < 3) {
    const direction = words[transfer + 1]?.key;
    const account = words[transfer + 2]?.key ?? '';
    const kind = /^SAV/.test(account) ? 'Savings' : /^(CHK|CHECKING|CHEQUING)$/.test(account) ? 'Checking' : undefined;
    if (kind && (direction === 'TO' || direction === 'FROM')) return { name: `Transfer ${direction.toLowerCase()} ${kind}`, category: 'Transfer' };
  }
  return undefined;
}

/** "... /NAME/Ziggo B.V./MARF/..." (SEPA lines as Dutch banks write them): the name field alone. */
function sepaName(text: string): string | undefined {
  const at = text.toUpperCase().indexOf('/NAME/');
  if (at < 0) return undefined;
  const end = text.indexOf('/', at + 6);
  return text.slice(at + 6, end < 0 ? undefined : end);
}

/** "ORIG CO NAME:GLOBEX INC ORIG ID:..." (ACH lines as some US banks write them): the originator's name. */
function achName(text: string): string | undefined {
  const upper = text.toUpperCase();
  const at = upper.indexOf('ORIG CO NAME:');
  if (at < 0) return undefined;
  const end = upper.indexOf(' ORIG ID', at);
  return text.slice(at + 13, end < 0 ? at + 60 : end);
}

/** The payee of a description, with the memo for lines that name it only there. */
export function payeeOf(description: string, memo?: string): Payee {
  const text = description.slice(0, PAYEE_CHARS);
  const named = sepaName(text) ?? achName(text);
  if (named !== undefined) return payeeOf(named, memo);
  const words = wordsOf(text);
  const mixed = hasLower(text) && /[A-Z]/.test(text);
  const own = bankLine(words, mixed);
  if (own) return own;
  // The description is only channel words ("KARTENZAHLUNG", "Betaalautomaat"): the memo names the payee.
  if (memo && payeeStart(words, true) >= words.length) return payeeOf(memo);
  const start = payeeStart(words);
  const lead = words[start]?.key;
  if (lead === 'ZELLE' || lead === 'BIZUM' || lead === 'TIKKIE') {
    const person = personAfter(words, start + 1, TO_FROM);
    if (person) return { name: titleCase(person, mixed), category: 'Transfer' };
  }
  const found = findMerchant(words, start);
  if (found) {
    // PayPal or a marketplace's processor on a SEPA line names the shop in the memo: "Ihr Einkauf bei SPOTIFY".
    if (found.merchant.name === 'PayPal' && memo) {
      const shop = shopInMemo(memo);
      if (shop) return shop;
    }
    return { name: found.merchant.name, merchant: found.merchant };
  }
  const kept = payeeWords(words, start);
  if (kept.length > 0) return { name: titleCase(kept, mixed) };
  const plain = words.filter((w) => !w.digit);
  return { name: titleCase(plain, mixed) };
}

function shopInMemo(memo: string): Payee | undefined {
  const words = wordsOf(memo.slice(0, PAYEE_CHARS));
  const at = words.findIndex(
    (w, i) => (w.key === 'BEI' || w.key === 'CHEZ' || w.key === 'AT') && i > 0 && /^(EINKAUF|ACHAT|PURCHASE)$/.test(words[i - 1]!.key),
  );
  if (at < 0 || at + 1 >= words.length) return undefined;
  const found = findMerchant(words, at + 1);
  if (found) return { name: found.merchant.name, merchant: found.merchant };
  const kept = payeeWords(words, at + 1);
  return kept.length > 0 ? { name: titleCase(kept, hasLower(memo)) } : undefined;
}
