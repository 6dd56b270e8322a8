import { beforeAll, describe, expect, it } from 'vitest';
import { OfxParseError, readOfxResponse } from '../../src/connectors/ofx/parse.js';
import { bestTimes, orRefused, repeatTo } from '../helpers/cost.js';

// Large enough that more than linear work shows many times over; each body is read ten times.
const SIZE = 1024 * 1024;
const HEADER = 'OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nSECURITY:NONE\r\nENCODING:USASCII\r\nCHARSET:1252\r\n\r\n';

/** A real-looking bank statement of about SIZE characters. */
function plainBody(): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < SIZE; i++) {
    const t =
      `<STMTTRN>\r\n<TRNTYPE>DEBIT\r\n<DTPOSTED>20240103120000.000[-5:EST]\r\n<TRNAMT>-${(i % 900) + 1}.17\r\n<FITID>${String(i).padStart(12, '0')}\r\n` +
      `<NAME>KROGER #${i % 1000}\r\n<MEMO>POS PURCHASE COLUMBUS OH\r\n</STMTTRN>\r\n`;
    parts.push(t);
    length += t.length;
  }
  return (
    `${HEADER}<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20240101</SONRS></SIGNONMSGSRSV1>` +
    '<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD' +
    `<BANKACCTFROM><BANKID>1<ACCTID>2<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>${parts.join('')}</BANKTRANLIST>` +
    '<LEDGERBAL><BALAMT>1.00<DTASOF>20240101</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>'
  );
}

const statement = (list: string) =>
  `${HEADER}<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>2<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>${list}</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;

/** Bodies of about SIZE characters built to make the reader do more than linear work, or hold on to a lot of memory. */
const hostileBodies: Record<string, string> = {
  'a million < in a value': `${HEADER}<OFX><MEMO>${repeatTo('<', SIZE)}</OFX>`,
  'a million < between elements': `${HEADER}<OFX><A><B>1</B>${repeatTo('< ', SIZE)}</A></OFX>`,
  'a million <A without >': `${HEADER}<OFX>${repeatTo('<A', SIZE)}</OFX>`,
  'very deep nesting': `${HEADER}<OFX>${repeatTo('<A>', SIZE / 2)}${repeatTo('</A>', SIZE / 2)}</OFX>`,
  'unclosed nesting, repeated': `${HEADER}<OFX>${repeatTo(`<X>${'<A>'.repeat(29)}<L>1</X>`, SIZE)}</OFX>`,
  'one huge element': `${HEADER}<OFX><MEMO>${repeatTo('x', SIZE)}</MEMO></OFX>`,
  'one huge element name': `${HEADER}<OFX><${repeatTo('A', SIZE)}>1</OFX>`,
  'one huge header': `${repeatTo('OFXHEADER:100\r\n', SIZE)}<OFX></OFX>`,
  'many tiny SGML elements': `${HEADER}<OFX>${repeatTo('<A>1', SIZE)}</OFX>`,
  'many tiny XML elements': `<?xml version="1.0"?><?OFX OFXHEADER="200" VERSION="220"?><OFX>${repeatTo('<A>1</A>', SIZE)}</OFX>`,
  'many stray closing tags': `${HEADER}<OFX>${repeatTo('</A>', SIZE)}</OFX>`,
  'many unclosed comments': `${HEADER}<OFX>${repeatTo('<!--', SIZE)}</OFX>`,
  'many entity references': `${HEADER}<OFX>${repeatTo('<A>&amp;&#65;&#x42;&bogus;&</A>', SIZE)}</OFX>`,
  'many empty transactions': statement(repeatTo('<STMTTRN></STMTTRN>', SIZE)),
  'many transactions without children': statement(repeatTo('<STMTTRN><FITID>1<TRNAMT>x</STMTTRN>', SIZE)),
  'many empty statements': `${HEADER}<OFX><BANKMSGSRSV1>${repeatTo('<STMTTRNRS><TRNUID>1</STMTTRNRS>', SIZE)}</BANKMSGSRSV1></OFX>`,
};

const read = orRefused(readOfxResponse, OfxParseError);

describe('the cost of hostile OFX bodies', () => {
  const plain = plainBody();
  beforeAll(() => {
    // The first runs compile the reader; they are not what is compared.
    for (let i = 0; i < 3; i++) readOfxResponse(plain);
  });

  it('the plain body is a real statement of about SIZE characters that reads completely', () => {
    expect(plain.length).toBeGreaterThanOrEqual(SIZE);
    const response = readOfxResponse(plain);
    const s = response.statements[0]?.statement;
    expect(s?.kind === 'bank' && s.transactions.length).toBeGreaterThan(3_000);
    expect(response.problems).toEqual([]);
  });

  it.each(Object.keys(hostileBodies))('%s: refused or read in at most three times the plain body', (name) => {
    const body = hostileBodies[name]!;
    expect(body.length).toBeGreaterThan(SIZE * 0.6);
    const cost = bestTimes(read, plain, body, { settledBelow: 1.5 });
    expect(cost.hostile / cost.plain, `${name}: ${cost.hostile.toFixed(0)} ms, plain ${cost.plain.toFixed(0)} ms`).toBeLessThan(3);
  });

  it('names a bounded number of problems however many records are broken', () => {
    const response = readOfxResponse(hostileBodies['many transactions without children']!);
    expect(response.problems.length).toBeLessThanOrEqual(101);
    expect(response.problems.at(-1)).toMatch(/^\d+ more records were left out/);
  });
});
