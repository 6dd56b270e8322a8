/**
 * The statement file formats, one reader each: how a file of the format is recognised from its first bytes and how
 * it is read. The formats themselves (names, media types, file names) are the contract's STATEMENT_FORMATS; this
 * table gives each its reader, in the order files are told apart (CSV, which any text may be, last). Adding a
 * format is a reader file, a row here and a row there.
 */
import type { StatementFormatName } from '../../contract/schemas/statements.js';
import { looksLikeCamt, readCamtStatement } from './camt.js';
import { StatementFileError } from './csv.js';
import { type CsvStatementOptions, readCsvStatement } from './import.js';
import { looksLikeMt940, readMt940Statement } from './mt940.js';
import { ofxFileToStatementImport } from './ofx.js';
import { isQifHead, readQifStatement } from './qif.js';
import type { StatementImport } from './types.js';

/** How a file is to be read: the CSV reader's options (the other formats state their accounts themselves). */
export type StatementReadOptions = CsvStatementOptions;

export interface StatementReader {
  name: StatementFormatName;
  /** Whether a file beginning with `head` (its first bytes as text, a byte-order mark removed) is of this format. */
  sniff(head: string): boolean;
  /** Reads the file, or refuses it (StatementFileError) when nothing can be imported from it. */
  read(bytes: Uint8Array, options: StatementReadOptions): StatementImport;
}

/** Refuses a file from which nothing could be imported: with the first of its `problems`, or as empty when it had none. */
function nothingRead(problems: StatementImport['problems'], what: string, empty: string): never {
  if (problems.length === 0) throw new StatementFileError('empty', empty);
  const reasons = problems
    .slice(0, 3)
    .map((p) => (p.line !== undefined ? `line ${p.line}: ${p.message}` : p.message))
    .join(' ');
  throw new StatementFileError('unreadable', `${what} could be read from the file. ${reasons}`);
}

const ofx: StatementReader = {
  name: 'ofx',
  // An OFX 1.x header, an OFX 2.x declaration after the XML one (comments between allowed), or an <OFX> element.
  sniff: (head) => /^\s*OFXHEADER\s*:/i.test(head) || /^\s*<\?xml[^>]*>\s*(<!--[\s\S]*?-->\s*)*<\?OFX/i.test(head) || /<OFX>/i.test(head),
  read(bytes) {
    const read = ofxFileToStatementImport(bytes);
    if (read.accounts.length === 0) {
      const why = read.problems.map((p) => p.message).join('; ') || 'it holds no statement';
      throw new StatementFileError('unreadable', `The file cannot be imported: ${why}.`);
    }
    return read;
  },
};

const mt940: StatementReader = {
  name: 'mt940',
  sniff: looksLikeMt940,
  read(bytes) {
    const read = readMt940Statement(bytes);
    if (read.accounts.length === 0) nothingRead(read.problems, 'No statement', 'The file holds no statement.');
    return read;
  },
};

const qif: StatementReader = {
  name: 'qif',
  sniff: isQifHead,
  read(bytes, options) {
    const read = readQifStatement(bytes, options);
    if (read.transactions.length === 0) {
      // The currency warning every QIF file gets is no reason.
      const reasons = read.problems.filter((p) => p.line !== undefined);
      nothingRead(reasons, 'No transaction', 'The file holds no transactions.');
    }
    return read;
  },
};

const camt: StatementReader = {
  name: 'camt',
  sniff: looksLikeCamt,
  read(bytes) {
    const read = readCamtStatement(bytes);
    if (read.accounts.length === 0) {
      const why = read.problems
        .slice(0, 3)
        .map((p) => (p.line !== undefined ? `line ${p.line}: ${p.message}` : p.message))
        .join(' ');
      throw new StatementFileError('unreadable', `No account could be read from the file. ${why || 'It holds no statement, report or notification.'}`);
    }
    return read;
  },
};

const csv: StatementReader = {
  name: 'csv',
  sniff: () => true,
  read(bytes, options) {
    const read = readCsvStatement(bytes, options);
    if (read.transactions.length === 0) nothingRead(read.problems, 'No transaction', 'The file holds no transactions.');
    return read;
  },
};

/** Every format's reader, in the order a file's first bytes are tried against them. */
export const STATEMENT_READERS = [ofx, camt, mt940, qif, csv] as const satisfies readonly StatementReader[];

// Every format of the contract has its reader (a compile-time check).
type Missing = Exclude<StatementFormatName, (typeof STATEMENT_READERS)[number]['name']>;
const everyFormatRead: [Missing] extends [never] ? true : Missing = true;
void everyFormatRead;

/** The reader of a format. */
export function readerOf(format: StatementFormatName): StatementReader {
  return STATEMENT_READERS.find((r) => r.name === format)!;
}
