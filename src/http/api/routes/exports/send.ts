import Type from 'typebox';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS, type ExportFormat } from '../../../../contract/schemas/exports.js';

/** A short file of each format, for the description. */
const EXPORT_EXAMPLES: Record<ExportFormat, string> = {
  csv:
    'Date,Posted Date,Account,Account ID,Account Number,Account Type,Currency,Amount,Description,Memo,Check Number,Type,Transaction ID\r\n' +
    '2026-10-05,2026-10-05,"Everyday Checking",5011000001,"XXXXXX4321",checking,USD,-45.10,"Corner Grocer, Main St","","",pointOfSale,20000000002\r\n',
  ofx:
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>\n<OFX>...' +
    '<STMTRS><CURDEF>USD</CURDEF><BANKACCTFROM><BANKID>101732</BANKID><ACCTID>XXXXXX4321</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>...</OFX>\n',
  qif: '!Account\nNEveryday Checking\nTBank\n^\n!Type:Bank\nD10/05/2026\nT-45.10\nPCorner Grocer, Main St\n^\n',
};

/** The 200 answer of the export operations: the file, in its format's media type. */
export const EXPORT_FILE_RESPONSE = {
  description: 'The file, sent as an attachment (Content-Disposition) as it is written',
  content: Object.fromEntries(
    EXPORT_FORMAT_NAMES.map((f) => [
      EXPORT_FORMATS[f].mediaType.split(';')[0]!,
      {
        schema: Type.String({ format: 'binary', description: `${EXPORT_FORMATS[f].label}: ${EXPORT_FORMATS[f].description}`, examples: [EXPORT_EXAMPLES[f]] }),
      },
    ]),
  ),
};

/** What both operations' descriptions say of the formats and the answer. */
export const EXPORT_DESCRIPTION =
  'Formats (`format`): CSV (one row per transaction with the account in columns; text cells that a spreadsheet would take for a formula are neutralised), OFX 2.2 (one statement per account, STMTRS or CCSTMTRS, with CURDEF and the ledger balance) and QIF (an !Account block and a transaction section per account). ' +
  'Posted transactions dated from `fromDate` to `toDate` (epoch seconds or YYYY-MM-DD; everything when absent), in date order per account; pending ones are left out until they post. ' +
  'The file is streamed as it is written, a page of transactions at a time, with `Content-Disposition: attachment`; any Accept is served (`text/csv` too), and errors come in JSON (XML when Accept asks for it). ' +
  'A bad format answers 400 (14170), bad dates 400 (14171). Every export reads back through Upload Statement File to the same transactions (docs/exports.md).';
