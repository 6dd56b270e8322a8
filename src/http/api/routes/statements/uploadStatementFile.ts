import type { FastifyInstance } from 'fastify';
import { uploadStatementFile } from '../../../../modules/aggregation/statements.service.js';
import type { App } from '../../../app-types.js';
import { CustomerInstitutionParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import {
  SNIFFED_MEDIA,
  STATEMENT_FORMAT_NAMES,
  STATEMENT_FORMATS,
  type StatementFormatName,
  StatementUpload,
  StatementUploadQuery,
} from '../../../../contract/schemas/statements.js';
import { partnerSlot } from '../../../plugins/heavy-work.js';
import { acceptStatementFiles, allowLongAnswer, STATEMENT_BODY_LIMIT, uploadOptions } from '../../../plugins/statement-files.js';

const OFX_EXAMPLE = `OFXHEADER:100
DATA:OFXSGML
VERSION:102

<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
<BANKACCTFROM><BANKID>121000248<ACCTID>1234567890<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20260301<DTEND>20260331
<STMTTRN><TRNTYPE>POS<DTPOSTED>20260303<TRNAMT>-42.17<FITID>202603030001<NAME>KROGER #512</STMTTRN>
</BANKTRANLIST><LEDGERBAL><BALAMT>1520.33<DTASOF>20260331</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
`;
const QIF_EXAMPLE = '!Type:Bank\nD3/2/2026\nT-4.50\nPCOFFEE ROASTERS\n^\nD3/3/2026\nT2,450.33\nPPAYROLL ACME CORP\n^\n';
const MT940_EXAMPLE =
  ':20:STARTUMS\r\n:25:DE89370400440532013000\r\n:28C:00001/001\r\n:60F:C260301EUR1520,33\r\n' +
  ':61:2603030303D42,17NMSCNONREF//202603030001\r\n:86:KROGER 512\r\n:62F:C260331EUR1478,16\r\n-\r\n';
const CAMT_EXAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
<GrpHdr><MsgId>STMT-20260331</MsgId><CreDtTm>2026-03-31T18:00:00</CreDtTm></GrpHdr>
<Stmt><Id>2026-03</Id><CreDtTm>2026-03-31T18:00:00</CreDtTm><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1478.16</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-03-31</Dt></Dt></Bal>
<Ntry><Amt Ccy="EUR">42.17</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-03-03</Dt></BookgDt><ValDt><Dt>2026-03-03</Dt></ValDt>
<AcctSvcrRef>202603030001</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>CCRD</Cd><SubFmlyCd>POSD</SubFmlyCd></Fmly></Domn></BkTxCd>
<NtryDtls><TxDtls><RltdPties><Cdtr><Nm>KROGER 512</Nm></Cdtr></RltdPties><RmtInf><Ustrd>Card payment 2026-03-02</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
</Stmt></BkToCstmrStmt></Document>
`;
const CSV_EXAMPLE = 'Date,Description,Amount\n03/02/2026,COFFEE ROASTERS,-4.50\n03/03/2026,PAYROLL ACME CORP,2450.33\n';

/** An example file of each format, for the OpenAPI description. */
const EXAMPLES: Record<StatementFormatName, string> = { ofx: OFX_EXAMPLE, mt940: MT940_EXAMPLE, qif: QIF_EXAMPLE, camt: CAMT_EXAMPLE, csv: CSV_EXAMPLE };
/** An example of each media type told from the first bytes. */
const SNIFFED_EXAMPLES: Record<keyof typeof SNIFFED_MEDIA, string> = { 'application/octet-stream': CSV_EXAMPLE, 'application/xml': CAMT_EXAMPLE };

const fileMedia = (description: string, example: string) => ({ schema: { type: 'string', format: 'binary', description, examples: [example] } });

/** The body's media types, each format's documented ones and the one told from its first bytes. */
const CONTENT = Object.fromEntries([
  ...STATEMENT_FORMAT_NAMES.flatMap((f) =>
    Object.entries(STATEMENT_FORMATS[f].media).map(([type, description]) => [type, fileMedia(description, EXAMPLES[f])]),
  ),
  ...Object.entries(SNIFFED_MEDIA).map(([type, description]) => [type, fileMedia(description, SNIFFED_EXAMPLES[type as keyof typeof SNIFFED_MEDIA])]),
]);

/** POST /aggregation/v1/customers/{customerId}/institutions/{institutionId}/statements (Ledgerlink extension) */
export default function uploadStatementFileRoute(app: App): void {
  // Its own scope: the body is the file, in whatever type it came (see acceptStatementFiles).
  void app.register(async (scope: FastifyInstance) => {
    acceptStatementFiles(scope);
    (scope as App).post('/aggregation/v1/customers/:customerId/institutions/:institutionId/statements', {
      bodyLimit: STATEMENT_BODY_LIMIT,
      schema: {
        operationId: 'UploadStatementFile',
        tags: ['Institution logins'],
        summary: 'Upload a statement file (Ledgerlink extension)',
        description:
          "Imports an OFX/QFX file, a camt.052/053/054 file, an MT940 file, a QIF file or a CSV export, sent as the request body, for a customer at an institution (any the customer may link at: a testing customer only the test institutions). The first upload at an institution creates the customer's statement-file institution login (no credentials; refreshes leave it as it is) with the file's accounts; later uploads merge into it: accounts by their reference, transactions by theirs (the FITID for OFX; the bank's reference, else date, amount and description, for camt and MT940; date, amount and description for CSV and QIF), so a file that overlaps an earlier one adds only what is new. New accounts and transactions raise the same TxPUSH events as a refresh. CSV layouts of the common banks are recognised by their header; for any other, send `mapping` (a 422 with code 14112 carries the file's `headers` and `sample` rows in `details` to ask the user from). Files are limited to 10 MB, 100,000 rows and 200 accounts (413, 14110). The file is read off the service's thread and stored a slice at a time, so a large one holds up no other request; a partner may run two uploads at once (429, 10432, beyond), and uploads at the same institution login one after another (a second waits for the first, 409 (325) after 30 seconds). Available on every plan. See docs/connectors.md, \"Statement files\".",
        params: CustomerInstitutionParams,
        querystring: StatementUploadQuery,
        fileBody: {
          description: 'The statement file itself, as downloaded from the institution',
          content: CONTENT,
        },
        response: { 200: StatementUpload, ...errorResponses(400, 401, 403, 404, 406, 409, 413, 415, 422, 429) },
      },
      // Before the body is read: a partner over its limit is refused without sending 10 MB first.
      onRequest: partnerSlot('upload'),
      handler: async (request) => {
        allowLongAnswer(request);
        const result = await uploadStatementFile(app.engine, {
          partnerId: request.caller.partnerId,
          customerId: request.params.customerId,
          institutionId: request.params.institutionId,
          ...uploadOptions(request.query, request.body, request.headers['content-type']),
        });
        return { ...result, institutionId: String(result.institutionId) };
      },
    });
  });
}
