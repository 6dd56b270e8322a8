/**
 * camt.053 bodies for the reader's cost and limit tests: a real-looking statement, and bodies of about the same size
 * built to make the reader do more than linear work or hold on to a lot of memory.
 */
import { repeatTo } from './cost.js';

// Smaller than the other readers' cost tests: the XML parser reads a few MB a second, and each body is read ten times.
export const SIZE = 512 * 1024;

const HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>' +
  '<GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-01-31T18:00:00</CreDtTm></GrpHdr>\n';
const ACCOUNT =
  '<Stmt><Id>S1</Id><CreDtTm>2026-01-31T18:00:00</CreDtTm><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>\n' +
  '<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-01-31</Dt></Dt></Bal>\n';
const TAIL = '</Stmt></BkToCstmrStmt></Document>\n';
export const BOOKED = '<Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-01-02</Dt></BookgDt>';

/** A real-looking statement of about SIZE characters: SEPA direct debits with their creditor and remittance line. */
export function plainBody(): string {
  const parts: string[] = [HEAD, ACCOUNT];
  let length = 0;
  for (let i = 0; length < SIZE; i++) {
    const day = `2026-01-${String((i % 28) + 1).padStart(2, '0')}`;
    const t =
      `<Ntry><Amt Ccy="EUR">${(i % 900) + 1}.17</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>${day}</Dt></BookgDt>` +
      `<ValDt><Dt>${day}</Dt></ValDt><AcctSvcrRef>${String(i).padStart(12, '0')}</AcctSvcrRef>` +
      '<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RDDT</Cd><SubFmlyCd>ESDD</SubFmlyCd></Fmly></Domn></BkTxCd>' +
      `<NtryDtls><TxDtls><RltdPties><Cdtr><Nm>Stadtwerke ${i % 1000}</Nm></Cdtr></RltdPties>` +
      `<RmtInf><Ustrd>Rechnung ${i % 10_000} vom 01.01.2026</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>\n`;
    parts.push(t);
    length += t.length;
  }
  parts.push(TAIL);
  return parts.join('');
}

export const inStatement = (body: string) => `${HEAD}${ACCOUNT}${body}${TAIL}`;
const attributes = (count: number) => Array.from({ length: count }, (_, i) => `a${i}="1"`).join(' ');
const LAUGHS =
  '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
  '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>';

/** Bodies of about SIZE characters built to make the reader do more than linear work, or hold on to a lot of memory. */
export const hostileBodies: Record<string, string> = {
  'very deep nesting': inStatement(`${repeatTo('<A>', SIZE / 2)}${repeatTo('</A>', SIZE / 2)}`),
  'deep nesting, repeated just under the limit': inStatement(repeatTo(`${'<A>'.repeat(55)}1${'</A>'.repeat(55)}`, SIZE)),
  'a huge attribute count on one element': HEAD.replace('<BkToCstmrStmt>', `<BkToCstmrStmt ${attributes(300_000)}>`) + ACCOUNT + TAIL,
  'many attributes on every amount, under the limit': inStatement(
    repeatTo(`<Ntry><Amt Ccy="EUR" ${attributes(30)}>1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd></Ntry>`, SIZE),
  ),
  'an element past the attribute limit after many entries': inStatement(`${repeatTo(`<Ntry>${BOOKED}</Ntry>`, SIZE)}<Ntry ${attributes(40)}/>`),
  'many booked entries': inStatement(repeatTo(`<Ntry>${BOOKED}</Ntry>`, SIZE)),
  'many empty entries': inStatement(repeatTo('<Ntry/>', SIZE)),
  'many entries sharing one reference': inStatement(repeatTo(`<Ntry>${BOOKED}<AcctSvcrRef>SAME</AcctSvcrRef><NtryRef>1</NtryRef></Ntry>`, SIZE)),
  'many statements': `${HEAD}${repeatTo('<Stmt><Acct><Id><Othr><Id>1</Id></Othr></Id><Ccy>EUR</Ccy></Acct></Stmt>', SIZE)}</BkToCstmrStmt></Document>`,
  'many currencies that are no codes': inStatement(repeatTo('<Ntry><Amt Ccy="QQ">1</Amt><CdtDbtInd>DBIT</CdtDbtInd></Ntry>', SIZE)),
  'entity expansion': `<?xml version="1.0"?>${LAUGHS}${inStatement(repeatTo('<Ntry><AddtlNtryInf>&lol3;</AddtlNtryInf></Ntry>', SIZE))}`,
  'many character references': inStatement(`<Ntry>${BOOKED}<AddtlNtryInf>${repeatTo('&#65;&amp;&#x42;', SIZE)}</AddtlNtryInf></Ntry>`),
  'one huge text': inStatement(`<Ntry>${BOOKED}<AddtlNtryInf>${repeatTo('x ', SIZE)}</AddtlNtryInf></Ntry>`),
  'one huge element name': inStatement(`<${repeatTo('A', SIZE / 2)}>1</${repeatTo('A', SIZE / 2)}>`),
  'many tiny elements': inStatement(repeatTo('<A>1</A>', SIZE)),
  'many unclosed tags': inStatement(repeatTo('<A', SIZE)),
  'a million < in a value': inStatement(`<Ntry><AddtlNtryInf>${repeatTo('<', SIZE)}</AddtlNtryInf></Ntry>`),
  'many comments holding entries': inStatement(repeatTo('<!-- <Ntry> -->', SIZE)),
  'many CDATA sections holding entries': inStatement(repeatTo('<Ntry><AddtlNtryInf><![CDATA[<Ntry>]]></AddtlNtryInf></Ntry>', SIZE)),
  'many namespace prefixes': inStatement(repeatTo(`<p:Ntry xmlns:p="urn:x"><p:Amt Ccy="EUR">1</p:Amt></p:Ntry>`, SIZE)),
  'one entry batching many transactions': inStatement(
    `<Ntry>${BOOKED}<NtryDtls>${repeatTo('<TxDtls><Amt Ccy="EUR">1</Amt><RltdPties><Cdtr><Nm>N</Nm></Cdtr></RltdPties><RmtInf><Ustrd>U</Ustrd></RmtInf></TxDtls>', SIZE)}</NtryDtls></Ntry>`,
  ),
  'one entry with many remittance lines': inStatement(
    `<Ntry>${BOOKED}<NtryDtls><TxDtls><RmtInf>${repeatTo('<Ustrd>abc</Ustrd>', SIZE)}</RmtInf></TxDtls></NtryDtls></Ntry>`,
  ),
};
