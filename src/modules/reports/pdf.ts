/**
 * A report as a PDF (Get Report with `Accept: application/pdf`): the same record the JSON answer carries, written
 * as text with pdfkit (its standard Helvetica, no font files): the header, the consumer, the summary, then each
 * account with its balances and transactions. A report in progress or failed gets a one-page PDF saying so.
 */
import { pdfText } from '../statements/pdf-text.js';
import { newPdfDocument } from '../../platform/pdf-document.js';
import type { ReportRecord } from './records.js';

type Account = NonNullable<ReportRecord['institutions']>[number]['accounts'][number];

const date = (epochSeconds: number | undefined) => (epochSeconds === undefined ? '' : new Date(epochSeconds * 1000).toISOString().slice(0, 10));
const amount = (value: number | undefined) =>
  value === undefined ? '' : value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function line(doc: PDFKit.PDFDocument, label: string, value: string | number | undefined): void {
  if (value === undefined || value === '') return;
  doc.text(pdfText(`${label}: ${value}`));
}

function accountSection(doc: PDFKit.PDFDocument, a: Account): void {
  doc
    .moveDown(0.5)
    .font('Helvetica-Bold')
    .fontSize(11)
    .text(pdfText(`${a.name} (${a.type}) ${a.number}`))
    .fontSize(9)
    .font('Helvetica');
  line(doc, 'Owner', a.ownerName);
  line(doc, 'Balance', `${amount(a.balance)} ${a.currency} on ${date(a.balanceDate)}`);
  line(doc, 'Available balance', amount(a.availableBalance));
  line(doc, 'Average monthly balance', amount(a.averageMonthlyBalance));
  if (a.asset) {
    line(doc, 'Two-month average', amount(a.asset.twoMonthAverage));
    line(doc, 'Six-month average', amount(a.asset.sixMonthAverage));
    line(doc, 'Beginning balance', amount(a.asset.beginningBalance));
  }
  line(doc, 'Insufficient funds fees', a.totNumberInsufficientFundsFeeDebitTxAccount);
  line(doc, 'Days since the latest insufficient funds fee', a.totNumberDaysSinceMostRecentInsufficientFundsFeeDebitTxAccount);
  for (const p of a.position ?? []) line(doc, 'Position', `${p.symbol ?? ''} ${p.securityName ?? ''} ${p.units ?? ''} units, ${amount(p.marketValue)}`.trim());
  const transactions = a.transactions ?? [];
  if (transactions.length > 0) {
    doc.moveDown(0.3).font('Helvetica-Bold').text(`Transactions (${transactions.length})`).font('Helvetica');
    for (const t of transactions) doc.text(pdfText(`${date(t.postedDate)}  ${amount(t.amount)}  ${t.description}${t.category ? `  [${t.category}]` : ''}`));
  }
}

/** The report as a PDF document. */
export async function reportPdf(report: ReportRecord): Promise<Buffer> {
  const doc = await newPdfDocument({ size: 'LETTER', margin: 50, info: { Title: report.title, Subject: report.id } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica-Bold').fontSize(16).text(report.title).fontSize(9).font('Helvetica').moveDown(0.5);
  line(doc, 'Report', `${report.id} (${report.type})`);
  line(doc, 'Status', report.status);
  line(doc, 'Created', date(report.createdDate));
  line(doc, 'Requested by', report.requesterName);
  line(doc, 'Customer', report.customerId);
  const c = report.consumerDetails;
  if (c) line(doc, 'Consumer', `${c.firstName} ${c.lastName}, ${[c.address, c.city, c.state, c.zip].filter(Boolean).join(', ')}`);
  line(doc, 'SSN (last four digits)', report.consumerSsn);
  for (const f of report.constraints?.reportCustomFields ?? []) if (f.shown !== false && f.label) line(doc, f.label, f.value ?? '');
  if (report.status === 'inProgress') doc.moveDown().text('This report is still being generated: ask again shortly.');
  for (const e of report.errors ?? []) doc.moveDown().text(pdfText(`The report failed (${e.code}): ${e.message}`));
  if (report.status === 'success') {
    doc.moveDown(0.5);
    if (report.startDate !== undefined)
      line(doc, 'Period', `${date(report.startDate)} to ${date(report.endDate)} (${report.days ?? 0} days${report.seasoned ? ', seasoned' : ''})`);
    line(doc, 'Consolidated available balance', amount(report.consolidatedAvailableBalance));
    line(doc, 'Statement (Get Asset by Customer and ID)', report.assetId);
    if (report.assets) {
      line(doc, 'Total current balance', amount(report.assets.currentBalance));
      line(doc, 'Total two-month average', amount(report.assets.twoMonthAverage));
      line(doc, 'Total six-month average', amount(report.assets.sixMonthAverage));
      line(doc, 'Total beginning balance', amount(report.assets.beginningBalance));
    }
    for (const institution of report.institutions ?? []) {
      doc.moveDown().font('Helvetica-Bold').fontSize(13).text(pdfText(institution.name)).fontSize(9).font('Helvetica');
      for (const a of institution.accounts) accountSection(doc, a);
    }
  }
  doc.end();
  return done;
}
