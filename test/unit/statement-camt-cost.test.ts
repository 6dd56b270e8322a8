import { Worker } from 'node:worker_threads';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCamtStatement } from '../../src/connectors/statements/camt.js';
import { StatementFileError } from '../../src/connectors/statements/csv.js';
import { bestTimes, orRefused, repeatTo } from '../helpers/cost.js';

// Smaller than the other readers' cost tests: the XML parser reads a few MB a second, and each body is read ten times.
const SIZE = 512 * 1024;

const HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>' +
  '<GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-01-31T18:00:00</CreDtTm></GrpHdr>\n';
const ACCOUNT =
  '<Stmt><Id>S1</Id><CreDtTm>2026-01-31T18:00:00</CreDtTm><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>\n' +
  '<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-01-31</Dt></Dt></Bal>\n';
const TAIL = '</Stmt></BkToCstmrStmt></Document>\n';
const BOOKED = '<Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-01-02</Dt></BookgDt>';

/** A real-looking statement of about SIZE characters: SEPA direct debits with their creditor and remittance line. */
function plainBody(): string {
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

const inStatement = (body: string) => `${HEAD}${ACCOUNT}${body}${TAIL}`;
const attributes = (count: number) => Array.from({ length: count }, (_, i) => `a${i}="1"`).join(' ');
const LAUGHS =
  '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
  '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>';

/** Bodies of about SIZE characters built to make the reader do more than linear work, or hold on to a lot of memory. */
const hostileBodies: Record<string, string> = {
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

const read = orRefused(readCamtStatement, StatementFileError);

/** What reading leaves to be kept and stored, in characters of its JSON. */
const keptSize = (text: string) => JSON.stringify(read(text) ?? {}).length;

/** Heap a reader thread may use: a few dozen times the plain body, far below what the upload's readers are given. */
const HEAP_LIMIT_MB = 160;

/**
 * Reads each body in a thread of its own whose heap is limited to HEAP_LIMIT_MB: the thread dies (and the promise
 * rejects, naming the body) when one needs more.
 */
function readWithinHeap(bodies: Record<string, string>): Promise<string[]> {
  const reader = new URL('../../src/connectors/statements/camt.ts', import.meta.url).href;
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(reader)}, ${JSON.stringify(reader)})).then(({ readCamtStatement }) => {
      for (const [name, body] of Object.entries(workerData)) {
        parentPort.postMessage({ reading: name });
        try { readCamtStatement(body); } catch (error) { if (error.name !== 'StatementFileError') throw error; }
        parentPort.postMessage({ read: name });
      }
      parentPort.postMessage({ done: true });
    });`;
  return new Promise((resolve, reject) => {
    const done: string[] = [];
    let reading = '';
    const worker = new Worker(code, {
      eval: true,
      workerData: bodies,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB, maxYoungGenerationSizeMb: 32 },
    });
    worker.on('message', (message: { reading?: string; read?: string; done?: boolean }) => {
      if (message.reading !== undefined) reading = message.reading;
      if (message.read !== undefined) done.push(message.read);
      if (message.done) void worker.terminate().then(() => resolve(done));
    });
    worker.on('error', (error) => reject(new Error(`${reading}: ${error.message}`)));
    worker.on('exit', (code) => {
      if (code !== 0 && done.length < Object.keys(bodies).length) reject(new Error(`${reading}: the reader thread stopped (${code})`));
    });
  });
}

describe('the cost of hostile camt bodies', () => {
  const plain = plainBody();
  beforeAll(() => {
    // The first runs compile the reader; they are not what is compared.
    for (let i = 0; i < 3; i++) read(plain);
  });

  it('the plain body is a real statement of about SIZE characters that reads completely', () => {
    expect(plain.length).toBeGreaterThanOrEqual(SIZE);
    const result = readCamtStatement(plain);
    expect(result.transactions.length).toBeGreaterThan(1_000);
    expect(result.transactions[0]).toMatchObject({ description: 'Stadtwerke 0', memo: 'Rechnung 0 vom 01.01.2026', amount: -1.17, type: 'directDebit' });
    expect(result.problems).toEqual([]);
  });

  it.each(Object.keys(hostileBodies))('%s: refused or read in at most three times the plain body', (name) => {
    const body = hostileBodies[name]!;
    expect(body.length).toBeGreaterThan(SIZE * 0.6);
    const cost = bestTimes(read, plain, body);
    expect(cost.hostile / cost.plain, `${name}: ${cost.hostile.toFixed(0)} ms, plain ${cost.plain.toFixed(0)} ms`).toBeLessThan(3);
  });

  it('entity expansion, huge attribute counts and nesting past the limit are refused', () => {
    for (const name of [
      'entity expansion',
      'a huge attribute count on one element',
      'an element past the attribute limit after many entries',
      'very deep nesting',
    ]) {
      expect(read(hostileBodies[name]!), name).toBeUndefined();
    }
  });

  it('every body reads within a bounded heap', async () => {
    expect(await readWithinHeap({ plain, ...hostileBodies })).toEqual(['plain', ...Object.keys(hostileBodies)]);
  }, 120_000);

  it('what a hostile body leaves to store is at most what the shortest booked entries leave per character', () => {
    // Each entry becomes a record of its own, whatever its length: the shortest booked ones leave the most.
    const shortest = inStatement(repeatTo(`<Ntry>${BOOKED}</Ntry>`, SIZE));
    const bound = keptSize(shortest) / shortest.length;
    for (const [name, body] of Object.entries(hostileBodies)) {
      const kept = keptSize(body) / body.length;
      expect(kept, `${name}: ${kept.toFixed(2)} characters kept per character read, the shortest entries ${bound.toFixed(2)}`).toBeLessThanOrEqual(bound);
    }
  });

  it('names a bounded number of problems, and texts of a bounded length, however many entries are broken', () => {
    const broken = readCamtStatement(hostileBodies['many empty entries']!);
    expect(broken.problems.length).toBeLessThanOrEqual(501);
    expect(broken.problems.at(-1)?.message).toMatch(/^\d+ more entries could not be read\.$/);
    const huge = readCamtStatement(hostileBodies['one huge text']!);
    expect(huge.transactions[0]!.description.length).toBeLessThanOrEqual(1000);
    const lines = readCamtStatement(hostileBodies['one entry with many remittance lines']!);
    expect(lines.transactions[0]!.description.length).toBeLessThanOrEqual(1000);
  });
});
