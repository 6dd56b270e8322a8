import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { previewStatementFile } from '../../../../modules/aggregation/statement-preview.service.js';
import { uploadStatementFile } from '../../../../modules/aggregation/statements.service.js';
import type { App } from '../../../app-types.js';
import { CustomerInstitutionParams } from '../../../../contract/schemas/accounts.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import {
  SNIFFED_MEDIA,
  STATEMENT_FORMAT_NAMES,
  STATEMENT_FORMATS,
  StatementPreview,
  StatementUpload,
  StatementUploadQuery,
  statementFormatsSaid,
} from '../../../../contract/schemas/statements.js';
import { partnerSlot } from '../../../plugins/heavy-work.js';
import { acceptStatementFiles, allowLongAnswer, STATEMENT_BODY_LIMIT, uploadOptions } from '../../../plugins/statement-files.js';

/** The operation's description: the formats' names and duplicate rules come from their rows. */
const DESCRIPTION =
  `Imports a statement file (${statementFormatsSaid()}), sent as the request body, for a customer at an institution (any the customer may link at: a testing customer only the test institutions). ` +
  "The first upload at an institution creates the customer's statement-file institution login (no credentials; refreshes leave it as it is) with the file's accounts; later uploads merge into it: accounts by their reference, transactions by theirs (" +
  STATEMENT_FORMAT_NAMES.map((f) => `${STATEMENT_FORMATS[f].label}: by ${STATEMENT_FORMATS[f].duplicates}`).join('; ') +
  '), so a file that overlaps an earlier one adds only what is new.' +
  ' New accounts and transactions raise the same TxPUSH events as a refresh. CSV layouts of the common banks are recognised by their header; for any other, send `mapping` (a 422 with code 14112 carries the file\'s `headers` and `sample` rows in `details` to ask the user from; for a card export whose signs the file cannot tell, also the proposed `mapping` and `ask: ["sign"]`: send that mapping with `negate` true or false). A mapping that reads the file is saved for later CSV files of the same layout (the header row names and separator) uploaded by the same partner, which are then read with it without one, before any built-in layout; the answer field `mapping` says which mapping was used (`given`, `saved`, `built-in`, `detected`), and GET and DELETE /aggregation/v1/statement-mappings list and forget the saved ones. An account of the file that is certainly one the customer already has (the same institution and number, or last four, and type, or transaction ids (FITIDs) both hold: a QFX download of an account linked live) goes into it rather than a new account, and the transactions another source stored there already are recognised (by the FITID where both have it, else by date within 4 days, amount and description), not stored twice and counted in `transactionsMatched`; where the match is uncertain (another institution, or no number but the same amounts and dates), nothing is stored and the answer is 409 (14115) asking "Is this the same account as …?", with the candidates in `details.sameAs`: send the file again with `sameAs`. With `preview=true` the file is read the same way and nothing is stored: the answer (StatementPreview) gives the accounts, the number of transactions and the first ten as they would be stored, and the problems. Files are limited to 10 MB, 100,000 rows and 200 accounts (413, 14110). The file is read off the service\'s thread and stored a slice at a time, so a large one holds up no other request; a partner may run two uploads at once (429, 10432, beyond), and uploads at the same institution login one after another (a second waits for the first, 409 (325) after 30 seconds). Available on every plan. See docs/connectors.md, "Statement files".';

/** An example of each media type told from the first bytes. */
const SNIFFED_EXAMPLES: Record<keyof typeof SNIFFED_MEDIA, string> = {
  'application/octet-stream': STATEMENT_FORMATS.csv.example,
  'application/xml': STATEMENT_FORMATS.camt.example,
};

const fileMedia = (description: string, example: string) => ({ schema: { type: 'string', format: 'binary', description, examples: [example] } });

/** The body's media types, each format's documented ones and the one told from its first bytes. */
const CONTENT = Object.fromEntries([
  ...STATEMENT_FORMAT_NAMES.flatMap((f) =>
    Object.entries(STATEMENT_FORMATS[f].media).map(([type, description]) => [type, fileMedia(description, STATEMENT_FORMATS[f].example)]),
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
        description: DESCRIPTION,
        params: CustomerInstitutionParams,
        querystring: StatementUploadQuery,
        fileBody: {
          description: 'The statement file itself, as downloaded from the institution',
          content: CONTENT,
        },
        response: { 200: Type.Union([StatementUpload, StatementPreview]), ...errorResponses(400, 401, 403, 404, 406, 409, 413, 415, 422, 429) },
      },
      // Before the body is read: a partner over its limit is refused without sending 10 MB first.
      onRequest: partnerSlot('upload'),
      handler: async (request) => {
        allowLongAnswer(request);
        const input = {
          partnerId: request.caller.partnerId,
          customerId: request.params.customerId,
          institutionId: request.params.institutionId,
          ...uploadOptions(request.query, request.body, request.headers['content-type']),
        };
        if (request.query.preview) return previewStatementFile(app.engine, input);
        const result = await uploadStatementFile(app.engine, input);
        return {
          ...result,
          institutionId: String(result.institutionId),
          accountMatches: result.accountMatches.map((m) => ({ ...m, accountId: String(m.accountId) })),
        };
      },
    });
  });
}
