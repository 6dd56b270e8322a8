/**
 * The statement as a PDF file (pdfkit): a letter-size document in the standard Helvetica fonts (no font files, so
 * text goes through pdfText first), with the account, the period, a summary of the balances and every transaction of
 * the period with its running balance. Written a few lines at a time, giving other requests their turn between them, and
 * deterministic: the same statement gives the same bytes (the document's dates are the statement's, its id made from
 * its content).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { shownDecimals } from '../../platform/currency.js';
import { newPdfDocument } from '../../platform/pdf-document.js';
import { pdfText } from './pdf-text.js';

const DAY = 86_400;

/** One line of the statement's transaction list. */
export interface StatementLine {
  /** Epoch seconds. */
  date: number;
  description: string;
  amount: number;
  /** The balance after it; absent when the account's balances are not known. */
  balance?: number | undefined;
}

/** Everything the document shows. */
export interface StatementDocument {
  institution: string;
  accountName: string;
  /** As the account's number is shown elsewhere: masked. */
  accountNumber: string;
  accountType: string;
  owner?: string | undefined;
  currency: string;
  /** The first second of the first day and the last second of the last day (UTC). */
  period: { start: number; end: number };
  /** Where the period comes from, in a sentence. */
  periodSource: string;
  opening?: number | undefined;
  closing?: number | undefined;
  credits: { count: number; total: number };
  debits: { count: number; total: number };
  /** The closing balance less the opening one and the transactions: an investment's price moves, a loan's interest. */
  otherChanges?: number | undefined;
  lines: readonly StatementLine[];
  /** How many transactions the period has: more than `lines` when the statement holds only the first ones. */
  total: number;
  /** When the statement was made (epoch seconds): the document's creation date. */
  generatedAt: number;
}

const PAGE = { width: 612, height: 792, margin: 50 };
const COLUMNS = { date: 50, description: 120, amount: 400, balance: 480, end: 562 };
const ROW = 14;
/** Lines written per turn of the event loop: a third of a page or so. */
const LINES_PER_TURN = 16;

/** MM/DD/YYYY of an epoch second (UTC), as the reference writes a statement's period. */
export function usDate(epochSeconds: number): string {
  const [y, m, d] = new Date(Math.floor(epochSeconds / DAY) * DAY * 1000).toISOString().slice(0, 10).split('-');
  return `${m}/${d}/${y}`;
}

/** An amount as the statement shows it: with its currency's decimals (a KWD statement's three). */
function money(amount: number, currency: string): string {
  const decimals = shownDecimals(currency);
  return amount.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** The text cut with an ellipsis to fit the width in the current font (the longest start that fits, by halving). */
function fitted(doc: PDFKit.PDFDocument, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let fits = 0;
  let over = text.length;
  while (over - fits > 1) {
    const mid = (fits + over) >> 1;
    if (doc.widthOfString(`${text.slice(0, mid)}…`) <= width) fits = mid;
    else over = mid;
  }
  return `${text.slice(0, fits).trimEnd()}…`;
}

function cell(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width: number, align: 'left' | 'right' = 'left'): void {
  doc.text(fitted(doc, pdfText(text), width), x, y, { width, align, lineBreak: false });
}

function tableHeader(doc: PDFKit.PDFDocument, y: number, currency: string): number {
  doc.font('Helvetica-Bold').fontSize(9);
  cell(doc, 'Date', COLUMNS.date, y, COLUMNS.description - COLUMNS.date - 6);
  cell(doc, 'Description', COLUMNS.description, y, COLUMNS.amount - COLUMNS.description - 6);
  cell(doc, `Amount (${currency})`, COLUMNS.amount, y, COLUMNS.balance - COLUMNS.amount - 6, 'right');
  cell(doc, `Balance (${currency})`, COLUMNS.balance, y, COLUMNS.end - COLUMNS.balance, 'right');
  doc
    .moveTo(COLUMNS.date, y + ROW - 3)
    .lineTo(COLUMNS.end, y + ROW - 3)
    .lineWidth(0.5)
    .stroke();
  doc.font('Helvetica').fontSize(9);
  return y + ROW;
}

function footer(doc: PDFKit.PDFDocument, page: number, s: StatementDocument): void {
  doc.font('Helvetica').fontSize(8);
  cell(doc, `${s.institution} · ${s.accountNumber} · ${usDate(s.period.start)} - ${usDate(s.period.end)}`, PAGE.margin, PAGE.height - 40, 400);
  cell(doc, `Page ${page}`, 450, PAGE.height - 40, COLUMNS.end - 450, 'right');
  doc.fontSize(9);
}

function heading(doc: PDFKit.PDFDocument, s: StatementDocument): number {
  doc.font('Helvetica-Bold').fontSize(16);
  cell(doc, s.institution, PAGE.margin, PAGE.margin, 512);
  doc.font('Helvetica').fontSize(11);
  cell(doc, 'Account statement', PAGE.margin, PAGE.margin + 22, 512);
  const details: [string, string][] = [
    ['Account', s.accountName],
    ['Account number', s.accountNumber],
    ['Account type', s.accountType],
    ...(s.owner ? ([['Account owner', s.owner]] as [string, string][]) : []),
    ['Currency', s.currency],
    ['Statement period', `${usDate(s.period.start)} - ${usDate(s.period.end)}`],
  ];
  let y = PAGE.margin + 48;
  doc.fontSize(10);
  for (const [label, value] of details) {
    doc.font('Helvetica-Bold');
    cell(doc, label, PAGE.margin, y, 110);
    doc.font('Helvetica');
    cell(doc, value, PAGE.margin + 120, y, 392);
    y += ROW;
  }
  // The one paragraph that may take more than a line.
  doc.fontSize(8).text(pdfText(s.periodSource), PAGE.margin, y + 2, { width: 512 });
  return doc.y + 14;
}

function summary(doc: PDFKit.PDFDocument, s: StatementDocument, top: number): number {
  const known = (value: number | undefined) => (value === undefined ? 'not known' : `${money(value, s.currency)} ${s.currency}`);
  const rows: [string, string][] = [
    ['Opening balance', known(s.opening)],
    [`Credits (${s.credits.count})`, known(s.credits.total)],
    [`Debits (${s.debits.count})`, known(s.debits.total)],
    ...(s.otherChanges !== undefined ? ([['Other changes in value', known(s.otherChanges)]] as [string, string][]) : []),
    ['Closing balance', known(s.closing)],
  ];
  doc.font('Helvetica-Bold').fontSize(11);
  cell(doc, 'Summary', PAGE.margin, top, 512);
  let y = top + 18;
  doc.font('Helvetica').fontSize(10);
  for (const [label, value] of rows) {
    cell(doc, label, PAGE.margin, y, 200);
    cell(doc, value, PAGE.margin + 200, y, 150, 'right');
    y += ROW;
  }
  if (s.total > s.lines.length) {
    doc.fontSize(8);
    cell(
      doc,
      `This statement lists the first ${s.lines.length.toLocaleString('en-US')} of the period's ${s.total.toLocaleString('en-US')} transactions; the summary counts them all.`,
      PAGE.margin,
      y + 2,
      512,
    );
    y += ROW;
  }
  return y + 14;
}

/** Writes the statement; resolves with the whole file. */
export async function writeStatementPdf(s: StatementDocument): Promise<Buffer> {
  const created = new Date(s.generatedAt * 1000);
  const doc = await newPdfDocument({
    size: 'LETTER',
    margin: PAGE.margin,
    autoFirstPage: true,
    info: {
      Title: pdfText(`Statement ${s.accountNumber} ${usDate(s.period.start)} - ${usDate(s.period.end)}`),
      Author: pdfText(s.institution),
      Creator: 'Ledgerlink',
      Producer: 'Ledgerlink',
      CreationDate: created,
      ModDate: created,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  let page = 1;
  let y = summary(doc, s, heading(doc, s));
  y = tableHeader(doc, y, s.currency);
  const bottom = PAGE.height - PAGE.margin - 20;
  if (s.lines.length === 0) cell(doc, 'No transactions in this period.', COLUMNS.description, y, 280);
  for (const [i, line] of s.lines.entries()) {
    // Other requests go between slices of lines.
    if (i > 0 && i % LINES_PER_TURN === 0) await nextTurn();
    if (y + ROW > bottom) {
      footer(doc, page, s);
      doc.addPage();
      page++;
      y = tableHeader(doc, PAGE.margin, s.currency);
    }
    cell(doc, usDate(line.date), COLUMNS.date, y, COLUMNS.description - COLUMNS.date - 6);
    cell(doc, line.description, COLUMNS.description, y, COLUMNS.amount - COLUMNS.description - 6);
    cell(doc, money(line.amount, s.currency), COLUMNS.amount, y, COLUMNS.balance - COLUMNS.amount - 6, 'right');
    cell(doc, line.balance === undefined ? '' : money(line.balance, s.currency), COLUMNS.balance, y, COLUMNS.end - COLUMNS.balance, 'right');
    y += ROW;
  }
  footer(doc, page, s);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
