/**
 * Statement file uploads (a Ledgerlink extension, docs/connectors.md "Statement files"): the options an upload
 * takes in its query string, and what it answers. The file itself is the request body.
 */
import Type from 'typebox';
import { Account } from './accounts.js';

const O = <T extends Type.TSchema>(schema: T) => Type.Optional(schema);

/** The kinds of account a CSV file's account may be said to be. */
export const STATEMENT_ACCOUNT_TYPES = [
  'checking',
  'savings',
  'creditCard',
  'loan',
  'mortgage',
  'lineOfCredit',
  'investment',
  'investmentTaxDeferred',
  'roth',
] as const;

/**
 * The statement file formats Ledgerlink reads, one row each: its name, what it is called, the media types it may be
 * sent as (the first ones documented, with their aliases) and the file names a browser offers for it. Each has a
 * reader in src/connectors/statements/formats.ts; CSV, which any text may be, is told last.
 */
export const STATEMENT_FORMATS = {
  ofx: {
    label: 'OFX, QFX (Quicken)',
    example: `OFXHEADER:100
DATA:OFXSGML
VERSION:102

<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
<BANKACCTFROM><BANKID>121000248<ACCTID>1234567890<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20260301<DTEND>20260331
<STMTTRN><TRNTYPE>POS<DTPOSTED>20260303<TRNAMT>-42.17<FITID>202603030001<NAME>KROGER #512</STMTTRN>
</BANKTRANLIST><LEDGERBAL><BALAMT>1520.33<DTASOF>20260331</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
`,
    duplicates: 'the FITID (one made from the date, amount and name when a transaction has none)',
    media: {
      'application/x-ofx': 'An OFX file (1.x SGML or 2.x XML); also application/ofx',
      'application/vnd.intu.qfx': 'A QFX (Quicken) file; also application/x-qfx',
    },
    // Not application/xml or text/xml: camt files are XML too, so those are told from the first bytes (SNIFFED_MEDIA).
    aliases: ['application/ofx', 'application/x-qfx', 'application/qfx'],
    extensions: ['.ofx', '.qfx', '.qbo'],
  },
  mt940: {
    label: 'MT940 (SWIFT)',
    example:
      ':20:STARTUMS\r\n:25:DE89370400440532013000\r\n:28C:00001/001\r\n:60F:C260301EUR1520,33\r\n' +
      ':61:2603030303D42,17NMSCNONREF//202603030001\r\n:86:KROGER 512\r\n:62F:C260331EUR1478,16\r\n-\r\n',
    duplicates: "the bank's reference with the value date, else date, amount and description",
    media: {
      'application/x-mt940': 'A SWIFT MT940 customer statement file (MT942 interim reports too); also text/x-mt940, application/mt940',
    },
    aliases: ['text/x-mt940', 'application/mt940'],
    extensions: ['.sta', '.mt940', '.940', '.swi'],
  },
  qif: {
    label: 'QIF (Quicken Interchange Format)',
    example: '!Type:Bank\nD3/2/2026\nT-4.50\nPCOFFEE ROASTERS\n^\nD3/3/2026\nT2,450.33\nPPAYROLL ACME CORP\n^\n',
    duplicates: 'date, amount, payee and check number',
    media: {
      'application/qif': 'A QIF file (Quicken, Microsoft Money, GnuCash and bank exports); also application/x-qif, text/qif, text/x-qif',
    },
    aliases: ['application/x-qif', 'text/qif', 'text/x-qif'],
    extensions: ['.qif'],
  },
  camt: {
    label: 'camt.052, camt.053, camt.054 (ISO 20022)',
    example: `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
<GrpHdr><MsgId>STMT-20260331</MsgId><CreDtTm>2026-03-31T18:00:00</CreDtTm></GrpHdr>
<Stmt><Id>2026-03</Id><CreDtTm>2026-03-31T18:00:00</CreDtTm><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1478.16</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-03-31</Dt></Dt></Bal>
<Ntry><Amt Ccy="EUR">42.17</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-03-03</Dt></BookgDt><ValDt><Dt>2026-03-03</Dt></ValDt>
<AcctSvcrRef>202603030001</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>CCRD</Cd><SubFmlyCd>POSD</SubFmlyCd></Fmly></Domn></BkTxCd>
<NtryDtls><TxDtls><RltdPties><Cdtr><Nm>KROGER 512</Nm></Cdtr></RltdPties><RmtInf><Ustrd>Card payment 2026-03-02</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
</Stmt></BkToCstmrStmt></Document>
`,
    duplicates: "the bank's reference (AcctSvcrRef) with the booking day, else date, amount and description",
    media: {
      'application/x-camt+xml':
        'An ISO 20022 camt.053 statement, camt.052 account report or camt.054 debit/credit notification (versions 001.02 to 001.08); sent as application/xml or text/xml, told from its first bytes',
    },
    aliases: [],
    extensions: ['.xml', '.camt', '.053', '.052', '.054'],
  },
  csv: {
    label: 'CSV',
    example: 'Date,Description,Amount\n03/02/2026,COFFEE ROASTERS,-4.50\n03/03/2026,PAYROLL ACME CORP,2450.33\n',
    duplicates: 'date, amount and description',
    media: {
      'text/csv': 'A CSV export (comma, semicolon or tab separated); also application/csv, application/vnd.ms-excel, text/tab-separated-values',
    },
    // Browsers label CSV files application/vnd.ms-excel on Windows.
    aliases: ['application/csv', 'text/comma-separated-values', 'text/tab-separated-values', 'application/vnd.ms-excel'],
    extensions: ['.csv', '.tsv', '.txt'],
  },
} as const satisfies Record<
  string,
  {
    label: string;
    /** A small file of the format, for the OpenAPI description. */
    example: string;
    /** How a transaction uploaded again is recognised (said in a sentence: "by ..."). */
    duplicates: string;
    media: Record<string, string>;
    aliases: readonly string[];
    extensions: readonly string[];
  }
>;

/** A statement file format's name. */
export type StatementFormatName = keyof typeof STATEMENT_FORMATS;

export const STATEMENT_FORMAT_NAMES = Object.keys(STATEMENT_FORMATS) as StatementFormatName[];

/** The formats as a person reads them in a sentence: "OFX, QFX (Quicken), MT940 (SWIFT), ... or CSV". */
export function statementFormatsSaid(labels: readonly string[] = STATEMENT_FORMAT_NAMES.map((f) => STATEMENT_FORMATS[f].label)): string {
  return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}` : (labels[0] ?? '');
}

/**
 * Media types whose file is told from its first bytes: browsers send OFX and QFX files with nothing or these, and
 * generic XML may be OFX 2.x or camt.
 */
export const SNIFFED_MEDIA = {
  'application/octet-stream': 'Any of the formats, told from its first bytes; also text/plain or no Content-Type',
  'application/xml': 'An OFX 2.x or camt file, told from its first bytes; also text/xml',
} as const;
export const SNIFFED_MEDIA_TYPES: readonly string[] = [...Object.keys(SNIFFED_MEDIA), 'text/plain', 'text/xml'];

/** One of the format names (typed as the names: a union built from a list has no static type of its own). */
const FormatName = (description: string, examples?: string[]) =>
  Type.Unsafe<StatementFormatName>(
    Type.Union(
      STATEMENT_FORMAT_NAMES.map((f) => Type.Literal(f)),
      { description, ...(examples ? { examples } : {}) },
    ),
  );

/** The query string of an upload: how to read a CSV file, or which kind of file it is. */
export const StatementUploadQuery = Type.Object({
  format: O(FormatName('The kind of file, when the Content-Type does not say it; otherwise told from the Content-Type, then from the first bytes')),
  mapping: O(
    Type.String({
      maxLength: 4096,
      description:
        'CSV only: which column holds what, as JSON. Columns by header text or position from 0: `date`, `description`, and `amount` or `debit`/`credit`; optional `memo`, `checkNum`, `type`, `postedDate`, `balance`, `status`, `account`, `accountNumber`, `currency` (a column of ISO 4217 codes, the currency of the amounts); `dateOrder` (mdy, dmy, ymd), `negate` (card exports with charges positive), `headerRow`. Needed when the layout is not recognised (422, 14112).',
      examples: ['{"date":"Posted","description":"Payee","debit":"Out","credit":"In","headerRow":0}'],
    }),
  ),
  accountName: O(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        "CSV and QIF: the account's name, when the file holds one account (for QIF, one without !Account records); later uploads with the same name land in the same account",
      examples: ['Everyday Checking'],
    }),
  ),
  accountType: O(
    Type.Union(
      STATEMENT_ACCOUNT_TYPES.map((t) => Type.Literal(t)),
      { description: "CSV and QIF: the kind of account, when the layout's guess is wrong (for QIF, of the file's only account)" },
    ),
  ),
  currency: O(
    Type.String({
      pattern: '^[A-Za-z]{3}$',
      description:
        "CSV and QIF: ISO 4217 code, which wins over the file's; otherwise for CSV the one the file names (a currency column, the amount columns' headers, codes or symbols beside the amounts, balance lines), else USD, named in problems when the file reads as one from outside the US (decimal commas, day-first dates, headers in another language); a QIF file names none",
      examples: ['USD'],
    }),
  ),
  sameAs: O(
    Type.String({
      maxLength: 4096,
      description:
        'The answer to an AccountMatchUncertain question (409, 14115), as JSON: for each account of `details.sameAs` (its `ref`), the id of the account it is, or `"new"` for a new account. The file\'s transactions then go to that account, its duplicates of what another source stored there recognised and counted in `transactionsMatched`',
      examples: ['{"q1Yz0l4cQ2gC3n0F0bXW8g":"5011000003"}'],
    }),
  ),
  preview: O(
    Type.Boolean({
      description:
        'true: read the file with these options exactly as an upload would, store nothing, and answer what it would store (StatementPreview: the accounts, the number of transactions, the first ten as they would be stored, the problems); the same limits and refusals as an upload',
    }),
  ),
});

/** A row or record of the file that could not be read (the rest was imported). */
export const StatementProblem = Type.Object(
  {
    line: O(Type.Integer({ minimum: 1, description: 'The line of the file, when the problem is in one row', examples: [14] })),
    message: Type.String({ examples: ['The date "31/02/2026" cannot be read as month-first.'] }),
  },
  { xml: { name: 'problem' } },
);

/** How a CSV file's columns were told apart (docs/connectors.md, "Saved column mappings"). */
export const STATEMENT_MAPPING_SOURCES = ['given', 'saved', 'built-in', 'detected'] as const;
export type StatementMappingSource = (typeof STATEMENT_MAPPING_SOURCES)[number];

/** A partner's saved column mapping is found again by this key of a CSV file's layout. */
const Fingerprint = (description: string) =>
  Type.String({ minLength: 1, maxLength: 100, description, examples: ['header.5.semicolon.9f2c41d07ab35e6810c4f2d9b7e15a03'] });

/** Which column mapping a CSV file was read with. */
export const StatementMappingUsed = Type.Object(
  {
    source: Type.Unsafe<StatementMappingSource>(
      Type.Union(
        STATEMENT_MAPPING_SOURCES.map((s) => Type.Literal(s)),
        {
          description:
            "`given`: the upload's `mapping`, now saved for the partner's later files of this layout; `saved`: the one the partner saved earlier for files of this layout (an earlier upload's `mapping`); `built-in`: a bank's layout recognised by its header; `detected`: columns recognised by their names",
          examples: ['saved'],
        },
      ),
    ),
    layout: O(
      Type.String({ description: 'built-in and detected: the layout recognised (`generic` and `generic-split` are detected ones)', examples: ['chase-card'] }),
    ),
    fingerprint: Fingerprint(
      "The file's layout: its header row's names (case, spacing and punctuation aside) and separator, or for a file without a header its width and what each column holds",
    ),
    savedDate: O(
      Type.Integer({
        description:
          'given and saved: when the mapping was saved for files of this layout (epoch seconds): by this upload for `given`, by an earlier one for `saved`',
        examples: [1795310000],
      }),
    ),
  },
  { description: 'CSV files only: which column mapping the file was read with', xml: { name: 'mapping' } },
);

/** A column mapping the partner saved (GET /aggregation/v1/statement-mappings). */
export const StatementMappingRecord = Type.Object(
  {
    fingerprint: Fingerprint('The layout of the files it is used for'),
    mapping: Type.String({
      description:
        "The column mapping as JSON, as an upload's `mapping` takes it (its `headerRow` is the saving file's; a later file's is where its header is)",
      examples: ['{"date":"Posted","description":"Payee","debit":"Out","credit":"In","headerRow":0}'],
    }),
    createdDate: Type.Integer({ description: 'When a mapping was first saved for this layout (epoch seconds)', examples: [1795310000] }),
    updatedDate: Type.Integer({ description: 'When this mapping was saved (epoch seconds): an upload with a mapping replaces it', examples: [1795310000] }),
    lastUsedDate: Type.Integer({ description: 'When an upload last used it or saved it (epoch seconds)', examples: [1795396400] }),
  },
  { xml: { name: 'statementMapping' } },
);

/** The partner's saved column mappings, the most recently used first. */
export const StatementMappingList = Type.Object(
  { mappings: Type.Array(StatementMappingRecord, { description: 'The most recently used first' }) },
  { xml: { name: 'statementMappings' } },
);

/** The path of one saved mapping. */
export const StatementMappingParams = Type.Object({ fingerprint: Fingerprint('The layout whose saved mapping is meant') });

/** How many transactions a preview shows, the file's first. */
export const STATEMENT_PREVIEW_TRANSACTIONS = 10;

/** A transaction as an upload would store it, in a preview. */
export const StatementPreviewTransaction = Type.Object(
  {
    account: Type.Integer({ minimum: 0, description: "Its account's position in `accounts`, from 0", examples: [0] }),
    transactionDate: Type.Integer({ description: 'The transaction date (epoch seconds)', examples: [1772452800] }),
    postedDate: Type.Integer({ description: 'The posted date (epoch seconds)', examples: [1772452800] }),
    description: Type.String({ examples: ['COFFEE ROASTERS'] }),
    amount: Type.Number({ description: 'With the sign it would be stored with: money out negative', examples: [-4.5] }),
    currency: Type.String({ description: "Its account's ISO 4217 currency", examples: ['USD'] }),
  },
  { xml: { name: 'transaction' } },
);

/** An account as an upload would store it, in a preview. */
export const StatementPreviewAccount = Type.Object(
  {
    name: Type.String({ examples: ['Imported account'] }),
    type: Type.String({ description: 'checking, savings, creditCard, ...', examples: ['checking'] }),
    currency: Type.String({ examples: ['EUR'] }),
  },
  { xml: { name: 'account' } },
);

/** What an upload with `preview=true` answers: what the file would store, nothing stored. */
export const StatementPreview = Type.Object(
  {
    preview: Type.Literal(true, { description: 'Always true: nothing was stored' }),
    format: FormatName('How the file was read', ['csv']),
    accounts: Type.Array(StatementPreviewAccount, { description: 'The accounts the file holds, as they would be stored', xml: { wrapped: true } }),
    currencyFrom: Type.Union([Type.Literal('file'), Type.Literal('asked'), Type.Literal('default')], {
      description:
        "Where the accounts' currency comes from: `file`, the file names it; `asked`, the upload's `currency`; `default`, nothing names one and USD is taken (CSV and QIF)",
      examples: ['file'],
    }),
    transactionsRead: Type.Integer({
      minimum: 0,
      description: 'Transactions read from the file (a reference it lists twice counts once): what an upload would add or find already present',
      examples: [42],
    }),
    transactions: Type.Array(StatementPreviewTransaction, {
      description: `The file's first ${STATEMENT_PREVIEW_TRANSACTIONS} transactions, account by account in the file's order, as they would be stored`,
      xml: { wrapped: true },
    }),
    problems: Type.Array(StatementProblem, {
      description: 'Rows or records that could not be read, and warnings, as an upload would answer them',
      xml: { wrapped: true },
    }),
  },
  { $id: 'StatementPreview', xml: { name: 'statementPreview' } },
);

/** What an upload did. */
export const StatementUpload = Type.Object(
  {
    institutionLoginId: Type.Integer({ description: "The customer's statement-file login at the institution", examples: [6000000042] }),
    institutionId: Type.String({ examples: ['101732'] }),
    loginCreated: Type.Boolean({ description: 'true for the first upload at this institution, which created the institution login' }),
    format: FormatName('How the file was read', ['csv']),
    accounts: Type.Array(Account, { description: 'The accounts the file holds, as stored after the upload', xml: { wrapped: true } }),
    transactionsAdded: Type.Integer({ minimum: 0, description: 'Transactions not seen before, now stored (each raised a TxPUSH event)', examples: [12] }),
    fileAssetId: Type.Optional(
      Type.String({
        description:
          'The file as uploaded, kept as an asset of the customer: Get Asset by Customer and ID answers it again (the same file uploaded again is the same asset; docs/statements.md)',
        examples: ['file-8d5c3a8e-6f7b-4b53-9d0e-2f1a7c4e9b10'],
      }),
    ),
    transactionsAlreadyPresent: Type.Integer({
      minimum: 0,
      description:
        'Transactions an earlier upload already brought, not stored twice: recognised as their format recognises them (the FITID for OFX; the bank\'s reference, or date, amount and description, for the others; docs/connectors.md, "Statement formats")',
      examples: [30],
    }),
    transactionsMatched: Type.Integer({
      minimum: 0,
      description:
        'Ledgerlink extension: transactions another source of the same account (a live connection, another file) had already stored, recognised as the same transaction (by the institution\'s id, or by date within 4 days, amount and description; docs/aggregation.md, "One account, several sources") and not stored twice',
      examples: [10],
    }),
    accountMatches: Type.Array(
      Type.Object(
        {
          ref: Type.String({ description: "The file's account, as AccountMatchUncertain names it" }),
          accountId: Type.String({ description: 'The account it went into', examples: ['5011000003'] }),
          matchedBy: Type.Union(
            [Type.Literal('accountNumber'), Type.Literal('lastFour'), Type.Literal('transactionIds'), Type.Literal('amounts'), Type.Literal('answer')],
            {
              description:
                "How: the same number, or last four, and type at the same institution; transaction ids (FITIDs) both hold; or the upload's `sameAs` answer",
            },
          ),
        },
        { xml: { name: 'accountMatch' } },
      ),
      {
        description:
          "Ledgerlink extension: the file's accounts that went into an account the customer already had (a live one, another file's) instead of a new one; that account's data stays its source's",
        xml: { wrapped: true },
      },
    ),
    problems: Type.Array(StatementProblem, { description: 'Rows or records that could not be read; everything else was imported', xml: { wrapped: true } }),
    mapping: O(StatementMappingUsed),
  },
  { $id: 'StatementUpload', xml: { name: 'statementUpload' } },
);
