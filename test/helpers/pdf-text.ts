import { inflateSync } from 'node:zlib';

/**
 * The text of a PDF that pdfkit wrote with its standard fonts: each content stream inflated, the strings of its
 * text operators (Tj, and TJ arrays of hex strings) decoded as WinAnsi (Latin-1 for the characters reports use),
 * one line per text object. Enough to check what a report says, without a PDF library.
 */
export async function pdfText(pdf: Buffer): Promise<string> {
  const lines: string[] = [];
  let at = 0;
  for (;;) {
    const start = pdf.indexOf('stream', at);
    if (start < 0) break;
    const dataStart = start + 'stream'.length + (pdf[start + 6] === 0x0d ? 2 : 1);
    const end = pdf.indexOf('endstream', dataStart);
    if (end < 0) break;
    const dictionary = pdf.subarray(Math.max(0, start - 200), start).toString('latin1');
    let data = pdf.subarray(dataStart, end);
    at = end + 'endstream'.length;
    if (dictionary.lastIndexOf('/FlateDecode') > dictionary.lastIndexOf('<<')) {
      try {
        data = inflateSync(data);
      } catch {
        continue;
      }
    }
    const content = data.toString('latin1');
    if (!content.includes('BT')) continue;
    for (const block of content.split(/\bBT\b/).slice(1)) {
      const body = block.split(/\bET\b/)[0] ?? '';
      let text = '';
      for (const match of body.matchAll(/\[((?:<[0-9a-fA-F]*>|[^\]])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
        const hexes = match[1] !== undefined ? [...match[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]!) : [match[2]!];
        text += hexes.map((h) => Buffer.from(h, 'hex').toString('latin1')).join('');
      }
      lines.push(text);
    }
  }
  return lines.join('\n');
}
