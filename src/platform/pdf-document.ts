import type PDFDocument from 'pdfkit';

/**
 * A new pdfkit document. pdfkit and its font engine are megabytes of code, kept in memory as source once loaded,
 * that most processes never run, so they are loaded with the first PDF a process writes.
 */
let pdfkit: Promise<typeof PDFDocument> | undefined;

export async function newPdfDocument(options: PDFKit.PDFDocumentOptions): Promise<PDFKit.PDFDocument> {
  pdfkit ??= import('pdfkit').then((module) => module.default);
  const Document = await pdfkit;
  return new Document(options);
}
