import { extractText, getDocumentProxy } from 'unpdf';

/**
 * The text a PDF reader shows of a document Ledgerlink wrote (reports, statements), all pages joined: read with
 * unpdf (PDF.js), so the tests check what a reader sees rather than the bytes pdfkit happens to write.
 */
export async function pdfText(pdf: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return text;
}
