import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastJson from 'fast-json-stringify';
import { ServiceError } from '../../contract/errors/service-error.js';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../json-depth.js';
import { negotiateFormat, type WireFormat } from '../negotiate.js';
import { ErrorBody } from '../../contract/schemas/error.js';
import { parseXmlDocument, shapeBySchema } from '../../contract/xml/parse.js';
import type { XmlSchema } from '../../contract/xml/schema-walk.js';
import { recordBranch, recordUnion, xmlWriter } from '../../contract/xml/serialize.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers a file in a media type of its own (an export): any Accept is served; its errors come in XML
     * where Accept asks for XML, else in JSON.
     */
    fileAnswer?: boolean;
  }
  interface FastifyRequest {
    /** The response format chosen from Accept (JSON outside the scopes that negotiate). */
    wireFormat: WireFormat;
    /** The request body arrived as XML and still needs shaping by the body schema. */
    bodyIsXml: boolean;
  }
}

type Responses = Record<string, XmlSchema> | undefined;

/** The response schema that applies to a status code, by exact code, then `4xx`-style range, then default. */
export function responseSchemaFor(responses: Responses, status: number): XmlSchema | undefined {
  const schema = responses?.[String(status)] ?? responses?.[`${Math.floor(status / 100)}xx`] ?? responses?.default;
  if (schema) return schema;
  return status >= 400 ? (ErrorBody as unknown as XmlSchema) : undefined;
}

/** The JSON body parser every scope uses (depth-limited; an empty body is none). */
export function parseJson(_req: FastifyRequest, body: string, done: (err: Error | null, body?: unknown) => void): void {
  // Real clients send `Content-Type: application/json` with no body on POSTs that take none.
  if (body.trim() === '') return done(null, undefined);
  // Before parsing: a parsed 5,000-level document overflows the stack of whatever walks it later.
  if (jsonDeeperThan(body, MAX_JSON_DEPTH)) return done(new ServiceError('JsonTooDeep', `JSON nested deeper than ${MAX_JSON_DEPTH} levels`));
  try {
    done(null, JSON.parse(body));
  } catch (e) {
    done(new ServiceError('MalformedBody', `Malformed JSON: ${(e as Error).message}`));
  }
}

function parseXml(req: FastifyRequest, body: string, done: (err: Error | null, body?: unknown) => void): void {
  if (body.trim() === '') return done(null, undefined);
  try {
    const value = parseXmlDocument(body);
    req.bodyIsXml = true;
    done(null, value);
  } catch (e) {
    done(e as Error);
  }
}

/**
 * JSON for an answer that is one of several records (an upload or its preview), written as the record it is, as the
 * XML writer does. fast-json-stringify tells union branches apart by validating the whole value against each, which
 * held the event loop for a large answer (an upload of hundreds of accounts) many times longer than writing it.
 */
function recordUnionJson(schema: unknown): ((value: unknown) => string) | undefined {
  const branches = recordUnion(schema as XmlSchema);
  if (!branches) return undefined;
  const writers = new Map(branches.map((branch) => [branch, fastJson(branch as object)]));
  return (value) => writers.get(recordBranch(branches, value))!(value);
}

/**
 * Response serialisers, each compiled once per schema object and shared by every route, scope and app of the process:
 * routes share their error schemas (each status of each route used to compile the same one again), and a process that
 * builds the app again (a worker, the tests) compiles nothing twice. Compiling was most of the time an app took to start.
 */
const serialisers = new WeakMap<object, (value: unknown) => string>();

function serialiserFor({ schema }: { schema: unknown }): (value: unknown) => string {
  let write = serialisers.get(schema as object);
  if (!write) {
    // Built when it first writes, as the request validators are (validators.ts): a process builds only what it serves.
    let built: ((value: unknown) => string) | undefined;
    write = (value) => (built ??= recordUnionJson(schema) ?? fastJson(schema as object))(value);
    serialisers.set(schema as object, write);
  }
  return write;
}

/** The body parsers every scope shares: JSON (depth-limited) and XML, with their limits. */
export const bodyParsers = fp(
  async (app: FastifyInstance, opts: { bodyLimit: number }) => {
    app.decorateRequest('wireFormat', 'json');
    app.decorateRequest('bodyIsXml', false);
    app.removeContentTypeParser(['application/json', 'text/plain']);
    app.addContentTypeParser(/^application\/([\w.-]+\+)?json\s*(;.*)?$/i, { parseAs: 'string', bodyLimit: opts.bodyLimit }, parseJson);
    app.addContentTypeParser(/^(application|text)\/([\w.-]+\+)?xml\s*(;.*)?$/i, { parseAs: 'string', bodyLimit: opts.bodyLimit }, parseXml);
    app.setSerializerCompiler(serialiserFor);
  },
  { name: 'ledgerlink-body-parsers' },
);

/**
 * JSON or XML by Accept, for the routes of a scope that serves API resources: the reply is serialised to XML
 * with the route's response schema for its status, and an XML body is shaped after the route's body schema
 * (XML carries no types or arrays) before validation coerces its scalars.
 */
export function negotiateContent(scope: FastifyInstance): void {
  scope.addHook('onRequest', (request, reply, done) => {
    const format = negotiateFormat(request.headers.accept) ?? (request.routeOptions.config.fileAnswer ? 'json' : undefined);
    if (!format) throw new ServiceError('NotAcceptable');
    request.wireFormat = format;
    if (format === 'xml') {
      const responses = request.routeOptions.schema?.response as Responses;
      reply.serializer((payload: unknown) => xmlWriter(responseSchemaFor(responses, reply.statusCode))(payload));
      reply.type('application/xml; charset=utf-8');
    }
    done();
  });
  scope.addHook('preValidation', (request, _reply, done) => {
    if (request.bodyIsXml) request.body = shapeBySchema(request.body, request.routeOptions.schema?.body as XmlSchema | undefined);
    done();
  });
}
