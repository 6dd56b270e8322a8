/**
 * Statement uploads send the file itself as the body: in the encapsulated scope of an upload route every
 * Content-Type arrives as raw bytes (the service tells OFX from CSV and refuses other types), limited to the
 * statement readers' own size, and a larger body is the statement error 14110 rather than the generic 10042.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { MAX_STATEMENT_BYTES, type StatementFormat } from '../../connectors/statements/file.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { StatementUploadInput } from '../../modules/aggregation/statements.service.js';

/** The body limit of an upload route: the largest file the readers take. */
export const STATEMENT_BODY_LIMIT = MAX_STATEMENT_BYTES;

/** Makes this scope (an upload route's own) take any body as bytes, up to STATEMENT_BODY_LIMIT. */
export function acceptStatementFiles(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: STATEMENT_BODY_LIMIT }, (_request, body, done) => done(null, body));
  // Thrown on to the app's error handler, which renders it in the caller's format.
  scope.setErrorHandler((error: FastifyError) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      throw new ServiceError('StatementFileTooLarge', `The file is larger than ${STATEMENT_BODY_LIMIT / 1024 / 1024} MB, the most a statement file may be.`);
    }
    throw error;
  });
}

/** The upload options of the query string (StatementUploadQuery), with the mapping's JSON read. */
export interface StatementQuery {
  format?: StatementFormat | undefined;
  mapping?: string | undefined;
  accountName?: string | undefined;
  accountType?: StatementUploadInput['accountType'];
  currency?: string | undefined;
}

/** The service's options from an upload's query string and body; a mapping that is not JSON is 10010. */
export function uploadOptions(
  query: StatementQuery,
  body: unknown,
  contentType: string | undefined,
): Pick<StatementUploadInput, 'file' | 'contentType' | 'format' | 'mapping' | 'accountName' | 'accountType' | 'currency'> {
  let mapping: unknown;
  if (query.mapping !== undefined && query.mapping.trim() !== '') {
    try {
      mapping = JSON.parse(query.mapping);
    } catch {
      throw new ServiceError(
        'InvalidParameter',
        'Invalid parameter (mapping): the column mapping must be JSON, such as {"date":"Date","description":"Description","amount":"Amount"}.',
      );
    }
  }
  return {
    file: Buffer.isBuffer(body) ? body : undefined,
    contentType,
    format: query.format,
    mapping,
    accountName: query.accountName,
    accountType: query.accountType,
    currency: query.currency,
  };
}
