/**
 * What Store Customer Pay Statement accepts (docs/statements.md, "Pay statements"): the reference's labels, Base64
 * text, and a document whose first bytes say PDF, JPEG or PNG (the types the reference names), up to a size.
 */

/** The labels the reference lists for a pay statement. */
export const PAY_STATEMENT_LABELS = [
  'lastPayPeriod',
  'lastPayPeriodMinusOne',
  'lastPayPeriodMinusTwo',
  'previousYearLastPayPeriod',
  'previousYear2LastPayPeriod',
  'earliestPayPeriod',
] as const;

/** The largest document stored, decoded: a pay statement is a page or two. */
export const MAX_PAY_STATEMENT_BYTES = 5 * 1024 * 1024;

/**
 * The standard alphabet, padding at the end only, line breaks anywhere (MIME encoders wrap lines): one class and a
 * bounded tail, so the test is a single scan. The decoder skips the line breaks; nothing builds a copy without them.
 */
const BASE64 = /^[A-Za-z0-9+/\r\n]*(?:=[\r\n]*){0,2}$/;
const LF = 10;
const CR = 13;
const PAD = 61;

export type PayStatementType = { mediaType: string; extension: string };

const TYPES: { magic: readonly number[]; type: PayStatementType }[] = [
  { magic: [0x25, 0x50, 0x44, 0x46, 0x2d], type: { mediaType: 'application/pdf', extension: '.pdf' } },
  { magic: [0xff, 0xd8, 0xff], type: { mediaType: 'image/jpeg', extension: '.jpg' } },
  { magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], type: { mediaType: 'image/png', extension: '.png' } },
];

/**
 * How many bytes Base64 text decodes to, or undefined when it is not Base64 (a length no encoder writes included),
 * known before anything is decoded.
 */
export function base64Size(text: string): number | undefined {
  if (!BASE64.test(text)) return undefined;
  let characters = 0;
  let padding = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) continue;
    characters++;
    if (c === PAD) padding++;
  }
  // Padded text comes in blocks of four; unpadded text cannot leave one character over.
  if (padding > 0 ? characters % 4 !== 0 : characters % 4 === 1) return undefined;
  return Math.floor((characters * 3) / 4) - padding;
}

/** What the document's first bytes say it is, among the types accepted. */
export function payStatementType(bytes: Uint8Array): PayStatementType | undefined {
  return TYPES.find(({ magic }) => magic.length <= bytes.length && magic.every((b, i) => bytes[i] === b))?.type;
}

/** The type of a stored one, by its media type. */
export function typeOfMedia(mediaType: string): PayStatementType | undefined {
  return TYPES.find(({ type }) => type.mediaType === mediaType)?.type;
}
