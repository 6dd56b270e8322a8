/**
 * Statement uploads send the file itself as the body: in the encapsulated scope of an upload route every
 * Content-Type arrives as raw bytes (the service tells OFX from CSV and refuses other types), limited to the
 * statement readers' own size, and a larger body is the statement error 14110 rather than the generic 10042.
 */
import type { Readable } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_STATEMENT_BYTES } from '../../connectors/statements/file.js';
import type { StatementFormatName } from '../../contract/schemas/statements.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { StatementUploadInput } from '../../modules/aggregation/statements.service.js';
import { parseSameAs } from '../../modules/aggregation/account-match.service.js';

/** The body limit of an upload route: the largest file the readers take. */
export const STATEMENT_BODY_LIMIT = MAX_STATEMENT_BYTES;

/** Makes this scope (an upload route's own) take any body as bytes, up to STATEMENT_BODY_LIMIT. */
export function acceptStatementFiles(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { bodyLimit: STATEMENT_BODY_LIMIT }, (request, payload, done) => {
    readBody(payload, declaredLength(request)).then(
      (body) => done(null, body),
      (error: Error) => done(error),
    );
  });
  // Thrown on to the app's error handler, which renders it in the caller's format.
  scope.setErrorHandler((error: FastifyError) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      throw new ServiceError('StatementFileTooLarge', `The file is larger than ${STATEMENT_BODY_LIMIT / 1024 / 1024} MB, the most a statement file may be.`);
    }
    throw error;
  });
}

const tooLarge = () =>
  new ServiceError('StatementFileTooLarge', `The file is larger than ${STATEMENT_BODY_LIMIT / 1024 / 1024} MB, the most a statement file may be.`);

function declaredLength(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}

/**
 * The body's bytes, copied into one buffer of their own as they arrive (into one of the declared length when the
 * client says it): gathering 10 MB of pieces and joining them at the end held the event loop for tens of
 * milliseconds. The buffer is the reader's to take (it is moved to the reading thread, not copied).
 */
async function readBody(payload: Readable, declared: number | undefined): Promise<Buffer> {
  if (declared !== undefined && declared > STATEMENT_BODY_LIMIT) throw tooLarge();
  let out = Buffer.allocUnsafeSlow(declared ?? 64 * 1024);
  let length = 0;
  for await (const chunk of payload as AsyncIterable<Buffer>) {
    if (length + chunk.length > out.length) {
      if (declared !== undefined || length + chunk.length > STATEMENT_BODY_LIMIT) throw tooLarge();
      const grown = Buffer.allocUnsafeSlow(Math.min(STATEMENT_BODY_LIMIT, Math.max(out.length * 2, length + chunk.length)));
      out.copy(grown, 0, 0, length);
      out = grown;
    }
    chunk.copy(out, length);
    length += chunk.length;
  }
  return length === out.length ? out : out.subarray(0, length);
}

/** The longest an upload's answer may take once its body is in: storing 100,000 rows can outlast the 60-second idle limit. */
const UPLOAD_ANSWER_MS = 10 * 60_000;

/** Lets this request's connection wait for its answer up to UPLOAD_ANSWER_MS without sending anything. */
export function allowLongAnswer(request: FastifyRequest): void {
  // An injected request (tests) has a socket without timeouts.
  request.raw.socket?.setTimeout?.(UPLOAD_ANSWER_MS);
}

/** The upload options of the query string (StatementUploadQuery), with the mapping's JSON read. */
export interface StatementQuery {
  format?: StatementFormatName | undefined;
  mapping?: string | undefined;
  accountName?: string | undefined;
  accountType?: StatementUploadInput['accountType'];
  currency?: string | undefined;
  sameAs?: string | undefined;
}

/** The service's options from an upload's query string and body; a mapping that is not JSON is 10010. */
export function uploadOptions(
  query: StatementQuery,
  body: unknown,
  contentType: string | undefined,
): Pick<StatementUploadInput, 'file' | 'contentType' | 'format' | 'mapping' | 'accountName' | 'accountType' | 'currency' | 'sameAs'> {
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
    sameAs: parseSameAs(query.sameAs),
  };
}
