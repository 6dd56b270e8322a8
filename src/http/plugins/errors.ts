import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCatalogue, type ErrorName } from '../../contract/errors/catalogue.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { negotiateFormat } from '../negotiate.js';
import { ErrorBody } from '../../contract/schemas/error.js';
import type { XmlSchema } from '../../contract/xml/schema-walk.js';
import { xmlWriter } from '../../contract/xml/serialize.js';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

function fieldPath(err: AjvError): string {
  const path = err.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (err.keyword === 'required') return path ? `${path}.${String(err.params.missingProperty)}` : String(err.params.missingProperty);
  return path;
}

function valueAt(root: unknown, instancePath: string): unknown {
  let v = root;
  for (const part of instancePath.split('/').slice(1)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** Turns a schema validation failure into a catalogue error that names the field. */
export function validationError(errors: AjvError[], context: string | undefined, request: FastifyRequest): ServiceError {
  const err = errors[0];
  if (!err) return new ServiceError('BadRequest');
  const field = fieldPath(err) || context || 'body';
  const source = context === 'querystring' ? request.query : context === 'params' ? request.params : context === 'headers' ? request.headers : request.body;
  const value = err.keyword === 'required' ? undefined : valueAt(source, err.instancePath);
  if (err.keyword === 'required' || (typeof value === 'string' && value.trim() === '' && ['minLength', 'pattern'].includes(err.keyword))) {
    return new ServiceError('MissingParameter', `Missing parameter (${field})`);
  }
  if (field === 'start' && err.keyword === 'minimum') return new ServiceError('StartIndexTooSmall');
  if (field === 'limit' && err.keyword === 'minimum') return new ServiceError('LimitTooSmall');
  if (field === 'limit' && err.keyword === 'maximum') return new ServiceError('LimitTooSmall', `Limit cannot be more than ${String(err.params.limit)}.`);
  if (err.keyword === 'type' && context === 'body' && field === 'body') {
    return request.body === undefined || request.body === null
      ? new ServiceError('MissingParameter', 'Missing parameter (request body)')
      : new ServiceError('MalformedBody', 'The request body must be an object');
  }
  let detail = err.message ?? 'is invalid';
  if (err.keyword === 'enum') detail = `must be one of: ${(err.params.allowedValues as unknown[]).join(', ')}`;
  return new ServiceError('InvalidParameter', `Invalid parameter (${field}): ${detail}`);
}

const FASTIFY_CODES: Record<string, ErrorName> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UnsupportedMediaType',
  FST_ERR_CTP_INVALID_TYPE: 'UnsupportedMediaType',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PayloadTooLarge',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'MalformedBody',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MalformedBody',
  FST_ERR_CTP_INVALID_JSON_BODY: 'MalformedBody',
  FST_ERR_BAD_URL: 'BadRequest',
  FST_ERR_ASYNC_CONSTRAINT: 'BadRequest',
};

// Database failures that are about availability, not about the request: connection refused or lost, the
// server shutting down or starting up, SQLite's disk full or I/O errors, a lock or a statement held too long.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // A statement or an idle transaction that ran past LEDGERLINK_PG_STATEMENT_TIMEOUT_MS: the server is busy.
  '57014',
  '25P03',
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
  'ENOSPC',
]);

/** Whether an error means the database (or its disk) is unavailable for now. */
export function isUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || code.startsWith('SQLITE_IOERR')) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /Connection terminated|connection timeout|Client has encountered a connection error|database or disk is full/i.test(message);
}

/** Maps anything thrown while handling a request to a catalogue error. 5xx details never leave the server. */
export function toServiceError(error: FastifyError | ServiceError | Error, request: FastifyRequest): ServiceError {
  if (error instanceof ServiceError) return error;
  const fe = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fe.validation) return validationError(fe.validation, fe.validationContext, request);
  const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (mapped) {
    const message =
      mapped === 'UnsupportedMediaType'
        ? `Unsupported Content-Type${request.headers['content-type'] ? ` "${request.headers['content-type']}"` : ' (none given)'}: send application/json or application/xml`
        : undefined;
    return new ServiceError(mapped, message);
  }
  if (fe.statusCode === 429) return new ServiceError('RateLimited', fe.message);
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    const byStatus = (Object.keys(ErrorCatalogue) as ErrorName[]).find((n) => ErrorCatalogue[n].status === fe.statusCode);
    return new ServiceError(byStatus ?? 'BadRequest', fe.message);
  }
  if (fe.statusCode === 503) return new ServiceError('ServiceUnavailable');
  if (isUnavailable(error))
    return new ServiceError('ServiceUnavailable', 'The database is unavailable or its disk is full; retry shortly', { 'retry-after': '5' });
  return new ServiceError('InternalError');
}

/** Where the Connect Components operations live (src/http/connect-components), which answer errors in a body of their own. */
export const COMPONENTS_PREFIX = '/connect-components/';

/**
 * A catalogue error as the Connect Components' error body, `{"Errors": {"Error": [...]}}` as the reference has it:
 * the code as ReasonCode, the code's meaning as Description, what went wrong as Details.
 */
export function componentsErrorBody(err: ServiceError) {
  const retry = err.status === 429 || err.status >= 500;
  return {
    Errors: {
      Error: [
        { Source: 'Connect-Components', ReasonCode: err.code, Description: ErrorCatalogue[err.errorName].message, Recoverable: retry, Details: err.message },
      ],
    },
  };
}

/**
 * Errors the router raises before any hook runs (malformed percent-encoding, over-long path parameters):
 * rendered in the catalogue format, negotiated from Accept here because no hook has run; under the Connect
 * Components' paths, in their body (JSON only).
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const err =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ServiceError('PathTooLong')
      : error.code === 'FST_ERR_BAD_URL'
        ? new ServiceError('MalformedUrl')
        : toServiceError(error, request);
  const body = { code: err.code, message: err.message };
  // No hook runs before these errors: the request id header (plugins/request-log.ts) is set here.
  reply.header('x-request-id', request.id);
  if (request.url.startsWith(COMPONENTS_PREFIX)) {
    void reply
      .code(err.status)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(componentsErrorBody(err)));
  } else if (negotiateFormat(request.headers.accept) === 'xml') {
    void reply
      .code(err.status)
      .type('application/xml; charset=utf-8')
      .send(xmlWriter(ErrorBody as unknown as XmlSchema)(body));
  } else {
    void reply.code(err.status).type('application/json; charset=utf-8').send(JSON.stringify(body));
  }
}

function send(reply: FastifyReply, err: ServiceError): FastifyReply {
  if (err.headers) reply.headers(err.headers);
  reply.errorCode = err.code;
  return reply.code(err.status).send({ code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) });
}

// What a path or query integer must look like before the validator coerces it: plain decimal digits.
// The validator alone would take "1e309" (Infinity), "0x10" or " 5" as integers.
const INTEGER_TEXT = /^-?\d+$/;
type PropertySchema = { type?: unknown; items?: { type?: unknown } };
const namesCaches = { integer: new WeakMap<object, string[]>(), boolean: new WeakMap<object, string[]>() };

/** The properties of an object schema of this type (integers: also arrays of integers), worked out once per schema. */
function namesOfType(schema: unknown, type: keyof typeof namesCaches): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const cache = namesCaches[type];
  let names = cache.get(schema);
  if (!names) {
    const properties = (schema as { properties?: Record<string, PropertySchema> }).properties ?? {};
    names = Object.entries(properties)
      .filter(([, p]) => p.type === type || (type === 'integer' && p.type === 'array' && p.items?.type === 'integer'))
      .map(([name]) => name);
    cache.set(schema, names);
  }
  return names;
}

/**
 * Reads boolean query parameters in any letter case: some languages print booleans as `True` and `False`, and
 * clients written in them send those. Other spellings (1, yes) are left for the validator to refuse.
 */
export function normalizeBooleanText(schema: unknown, values: unknown): void {
  if (!values || typeof values !== 'object') return;
  for (const name of namesOfType(schema, 'boolean')) {
    const value = (values as Record<string, unknown>)[name];
    if (typeof value !== 'string') continue;
    const lower = value.toLowerCase();
    if (lower === 'true' || lower === 'false') (values as Record<string, unknown>)[name] = lower;
  }
}

/** Rejects path and query integers that are not plain decimal numbers within the safe integer range. */
export function checkIntegerText(schema: unknown, values: unknown): void {
  if (!values || typeof values !== 'object') return;
  for (const name of namesOfType(schema, 'integer')) {
    const value = (values as Record<string, unknown>)[name];
    if (Array.isArray(value)) for (const v of value) checkIntegerValue(name, v);
    else checkIntegerValue(name, value);
  }
}

function checkIntegerValue(name: string, value: unknown): void {
  if (typeof value !== 'string') return;
  if (!INTEGER_TEXT.test(value)) throw new ServiceError('InvalidParameter', `Invalid parameter (${name}): must be integer`);
  if (!Number.isSafeInteger(Number(value)))
    throw new ServiceError(
      'InvalidParameter',
      `Invalid parameter (${name}): must be an integer between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
    );
}

/**
 * Refuses text containing a NUL character anywhere in the path parameters, the query or the body: no stored text
 * may hold one (PostgreSQL cannot store it at all), so it is a caller's mistake, said with the field's name.
 */
export function checkNoNul(values: unknown, where: string, depth = 0): void {
  if (typeof values === 'string') {
    if (values.includes('\0')) throw new ServiceError('InvalidParameter', `Invalid parameter (${where || 'body'}): contains a NUL character`);
    return;
  }
  if (!values || typeof values !== 'object' || ArrayBuffer.isView(values) || depth > 64) return;
  for (const [key, value] of Object.entries(values)) {
    if (key.includes('\0')) throw new ServiceError('InvalidParameter', `Invalid parameter (${where || 'body'}): a name contains a NUL character`);
    checkNoNul(value, where ? `${where}.${key}` : key, depth + 1);
  }
}

/** Answers a request no route matched, in the format of the scope that sets it (see http/api). */
export function routeNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return send(reply, new ServiceError('RouteNotFound', `Route not found: ${request.method} ${request.url.split('?')[0]}`));
}

type RouteSchema = { params?: unknown; querystring?: unknown } | undefined;

/**
 * The one error handler (every failure becomes `{code, message}` in the caller's format), and the checks the
 * validator does not make on path, query and body text. The checks are attached to each route with a schema as
 * it is registered, since they need that route's schema.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const err = toServiceError(error, request);
      if (err.status >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.info({ code: err.code, status: err.status }, err.message);
      if (err.errorName === 'NotAcceptable') {
        // Nothing the caller accepts can be produced; say so in JSON.
        reply.serializer(JSON.stringify).type('application/json; charset=utf-8');
      } else if (request.wireFormat === 'xml') {
        // Fastify clears the content type before error handling; the XML serializer is still in place.
        reply.type('application/xml; charset=utf-8');
      }
      return send(reply, err);
    });
    app.addHook('onRoute', (route) => {
      const schema = route.schema as RouteSchema;
      if (!schema) return;
      const check: preValidationHookHandler = (request, _reply, done) => {
        checkIntegerText(schema.params, request.params);
        checkIntegerText(schema.querystring, request.query);
        normalizeBooleanText(schema.querystring, request.query);
        checkNoNul(request.params, '');
        checkNoNul(request.query, '');
        if (request.body !== undefined && typeof request.body === 'object') checkNoNul(request.body, '');
        done();
      };
      route.preValidation = [...[route.preValidation ?? []].flat(), check];
    });
  },
  { name: 'ledgerlink-errors' },
);
