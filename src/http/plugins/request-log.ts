import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pipeline, Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  BODY_CAP,
  bodyText,
  capped,
  headerLines,
  isHeaderMapName,
  isSecretField,
  ACCOUNT_NUMBERS_NOT_STORED,
  DOCUMENT_NOT_STORED,
  NOT_STORED,
  STATEMENT_FILE_NOT_STORED,
  redactBody,
  redactedJson,
} from '../../modules/requestlog/redact.js';
import { credentialsOwner, detailSize, NO_DETAIL, type RequestLogEntry, RequestLogWriter } from '../../modules/requestlog/service.js';
import { redactUrlSecrets } from '../../platform/redact-query.js';
import type { Runtime } from '../../platform/dependencies.js';
import { appKeyOf, appTokenOf } from './auth.js';
import { responseSchemaFor } from './content.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's success answers give full account numbers (ACH and loan payment details): the request log keeps
     * their size only, as it does of a statement file.
     */
    answerHoldsAccountNumbers?: boolean;
    /** The route's request body carries a person's document (a pay statement): the request log keeps its size only. */
    bodyHoldsDocument?: boolean;
  }
  interface FastifyReply {
    /** The catalogue code of the error this reply carries, for the request log. */
    errorCode: string | undefined;
    /** What the reply sent (after serialisation), for the request log of a partner's request. */
    loggedPayload: unknown;
  }
  interface FastifyRequest {
    /** Whose log the request lands in, and whether its headers and bodies are kept, once worked out (logRequests). */
    logFor: LogFor | null;
    /** Counts the request body's bytes (and keeps the first of an XML one) while it is read, when its detail is kept. */
    loggedBody: BodyCapture | null;
    /** The request body as the log keeps it, made once a parser took it. */
    loggedRequest: StoredBody | null;
  }
  interface FastifyInstance {
    requestLog: RequestLogWriter;
  }
}

/** Whose log a request lands in (no partner's: operators' only) and whether its headers and bodies are kept. */
interface LogFor {
  partnerId: string | undefined;
  detail: boolean;
  /** Characters of detail counted against the partner's allowance so far. */
  counted: number;
}

/** A body as the log keeps it: its text (null when there is none to show) and its size (null when not known). */
interface StoredBody {
  body: string | null;
  bytes: number | null;
}

/** What a client may send as its own X-Request-Id to have it used: 1 to 128 letters, digits and `. _ : = + / -`. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:=+/-]{1,128}$/;

/**
 * The id of a request (Fastify's genReqId): the client's own X-Request-Id when it is sane, so a client can find its
 * call in the log by the id it logged itself; otherwise a new random UUID. Every answer carries it back (the header
 * `x-request-id`), and the request log keeps it.
 */
export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  return typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/**
 * Passes a request body through unchanged, counting its bytes, and keeping a copy of the first BODY_CAP of them when
 * asked (an XML body is kept as it came, redacted; a JSON one is written again from what its parser made).
 */
class BodyCapture extends Transform {
  /** Bytes that went through so far. */
  bytes = 0;
  /** Whether the whole body went through. */
  ended = false;
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;

  constructor(private readonly keep: boolean) {
    super();
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.bytes += bytes.length;
    if (this.keep && this.keptBytes < BODY_CAP) {
      // A copy: the chunk may be a view of a larger buffer that should not stay in memory for the log.
      const part = Buffer.from(bytes.subarray(0, BODY_CAP - this.keptBytes));
      this.kept.push(part);
      this.keptBytes += part.length;
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.ended = true;
    callback();
  }

  /** The bytes kept. */
  first(): Buffer {
    return this.kept.length === 1 ? this.kept[0]! : Buffer.concat(this.kept);
  }
}

/** The request log's writer, shared by the app's scopes and closed with the app; and the request id on every answer. */
export const requestLogPlugin = fp(
  async (app: FastifyInstance, opts: { runtime: Runtime }) => {
    const writer = new RequestLogWriter(opts.runtime.database, opts.runtime.clock);
    app.decorate('requestLog', writer);
    app.decorateReply('errorCode', undefined);
    app.decorateReply('loggedPayload', undefined);
    app.decorateRequest('logFor', null);
    app.decorateRequest('loggedBody', null);
    app.decorateRequest('loggedRequest', null);
    // Set first, so answers of every scope carry it, errors of later hooks included.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      done();
    });
    app.addHook('onClose', async () => writer.close());
  },
  { name: 'ledgerlink-request-log' },
);

/**
 * The path as the request log keeps it: secrets in its query string and user names and passwords of URLs in it
 * redacted (it is shown on the dashboard), at most 500 characters.
 */
function storedPath(url: string): string {
  const path = redactUrlSecrets(url);
  return path.length > 500 ? `${path.slice(0, 500)}…` : path;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/** The size the request declared for its body, if any. */
function declaredLength(request: FastifyRequest): number | undefined {
  const declared = Number(request.headers['content-length']);
  return request.headers['content-length'] !== undefined && Number.isSafeInteger(declared) ? declared : undefined;
}

type Detail = Pick<RequestLogEntry, keyof typeof NO_DETAIL>;

/** A request body's text as kept: secrets redacted, capped; null when it is not text. */
function keptText(bytes: Buffer, whole: number): string | null {
  const text = bodyText(bytes, whole);
  return text === undefined ? null : capped(redactBody(text, true, whole > BODY_CAP));
}

/**
 * The request body as the log keeps it, made once its parser took it (preValidation, before validation changes it):
 * a JSON body written again from what the parser made, secret members redacted by their parsed name; an XML body as
 * it came, with the content of secret elements redacted (its parser took it, so it is well-formed); a statement file
 * not at all (it holds full account numbers), only its size.
 */
function parsedRequestBody(request: FastifyRequest): StoredBody {
  const capture = request.loggedBody;
  request.loggedBody = null;
  if (!capture) return { body: null, bytes: 0 };
  const parsed = request.body;
  // GET and HEAD bodies are never read.
  if (parsed === undefined && (request.method === 'GET' || request.method === 'HEAD')) return { body: null, bytes: null };
  const bytes = capture.ended ? capture.bytes : (declaredLength(request) ?? capture.bytes);
  // Only statement uploads take their body as bytes.
  if (Buffer.isBuffer(parsed)) return { body: STATEMENT_FILE_NOT_STORED, bytes };
  if (request.routeOptions.config.bodyHoldsDocument) return { body: DOCUMENT_NOT_STORED, bytes };
  if (request.bodyIsXml) return { body: keptText(capture.first(), bytes), bytes };
  // A body of white space only.
  if (parsed === undefined) return { body: '', bytes };
  return { body: redactedJson(parsed), bytes };
}

/** The request body as the log keeps it: as parsed; else why not, and its size when known. */
function requestBody(request: FastifyRequest): StoredBody {
  if (request.loggedRequest) return request.loggedRequest;
  if (!hasBody(request)) return { body: null, bytes: 0 };
  const capture = request.loggedBody;
  // Refused before its body was read (its credentials, most often).
  if (!capture) return { body: null, bytes: null };
  // Read, or begun, but no parser took it (an unsupported type, malformed, too large): its bytes are not kept, as
  // redaction cannot know what the service would have read from them.
  return { body: NOT_STORED, bytes: capture.ended ? capture.bytes : (declaredLength(request) ?? null) };
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, unknown>;
  additionalProperties?: unknown;
  patternProperties?: unknown;
  items?: unknown;
  anyOf?: unknown[];
  oneOf?: unknown[];
  allOf?: unknown[];
};

/**
 * Whether an answer of this schema can hold a field with a secret's name or a header map. Answers are serialised from
 * their schema, which writes only the properties it names, so where none has such a name (and none is free-form) the
 * body's fields need no redaction: the common case of large answers (transactions, accounts, institutions) costs no
 * scan of them.
 */
function mayHoldSecretFields(node: unknown, depth = 0): boolean {
  if (!node || typeof node !== 'object' || depth > 32) return true;
  const s = node as JsonSchema;
  const branches = s.anyOf ?? s.oneOf ?? s.allOf;
  if (branches) return branches.some((b) => mayHoldSecretFields(b, depth + 1));
  const types = s.type === undefined ? [] : [s.type].flat();
  if (types.length === 0) return true;
  if (types.includes('object')) {
    if (!s.properties || s.patternProperties !== undefined || (s.additionalProperties !== undefined && s.additionalProperties !== false)) return true;
    return Object.entries(s.properties).some(
      ([name, sub]) => isSecretField(name) || (isHeaderMapName(name) && mayBeObject(sub, depth + 1)) || mayHoldSecretFields(sub, depth + 1),
    );
  }
  if (types.includes('array')) return mayHoldSecretFields(s.items, depth + 1);
  return false;
}

/**
 * Whether a value of this schema can be an object: a member named like a header map is one only then (the CSV column
 * names of a statement error's `details.headers`, a list of strings, are not).
 */
function mayBeObject(node: unknown, depth: number): boolean {
  if (!node || typeof node !== 'object' || depth > 32) return true;
  const s = node as JsonSchema;
  const branches = s.anyOf ?? s.oneOf ?? s.allOf;
  if (branches) return branches.some((b) => mayBeObject(b, depth + 1));
  return s.type === undefined || [s.type].flat().includes('object');
}

const secretFieldsBySchema = new WeakMap<object, boolean>();

/** mayHoldSecretFields of the schema of the answer this reply gave, worked out once per schema. */
function answerMayHoldSecretFields(request: FastifyRequest, reply: FastifyReply): boolean {
  const schema = responseSchemaFor(request.routeOptions.schema?.response as Parameters<typeof responseSchemaFor>[0], reply.statusCode);
  if (!schema) return true;
  let known = secretFieldsBySchema.get(schema);
  if (known === undefined) secretFieldsBySchema.set(schema, (known = mayHoldSecretFields(schema)));
  return known;
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json\b/i;

/** The response body as the log keeps it: its text (redacted, capped) and its size. */
function responseBody(request: FastifyRequest, reply: FastifyReply, payload: unknown): StoredBody {
  // Nothing goes out for these, whatever the serialiser made.
  if (reply.statusCode === 204 || reply.statusCode === 304 || request.method === 'HEAD') return { body: null, bytes: 0 };
  const declared = Number(reply.getHeader('content-length'));
  let text: string | undefined;
  let bytes: number | null;
  let cut: boolean;
  if (typeof payload === 'string') {
    cut = payload.length > BODY_CAP;
    // A copy of the start of a long answer: a slice would keep all of it in memory until the entry is written.
    text = cut ? Buffer.from(payload.slice(0, BODY_CAP)).toString() : payload;
    bytes = Number.isSafeInteger(declared) ? declared : Buffer.byteLength(payload);
  } else if (Buffer.isBuffer(payload)) {
    cut = payload.length > BODY_CAP;
    text = bodyText(payload, payload.length);
    bytes = payload.length;
  } else if (payload === undefined || payload === null) {
    return { body: null, bytes: Number.isSafeInteger(declared) ? declared : 0 };
  } else {
    // A stream: not kept.
    return { body: null, bytes: Number.isSafeInteger(declared) ? declared : null };
  }
  if (text === undefined || text === '') return { body: text === '' ? '' : null, bytes };
  if (request.routeOptions.config.answerHoldsAccountNumbers && reply.statusCode < 300) return { body: ACCOUNT_NUMBERS_NOT_STORED, bytes };
  const fields = answerMayHoldSecretFields(request, reply);
  // A whole JSON answer that may name a secret: redacted by its members' names as parsed, as request bodies are.
  if (fields && !cut && JSON_TYPE.test(String(reply.getHeader('content-type') ?? ''))) {
    try {
      return { body: redactedJson(JSON.parse(text)), bytes };
    } catch {
      // Not JSON after all: as text, below.
    }
  }
  return { body: capped(redactBody(text, fields, cut)), bytes };
}

/** Headers and bodies of a request and its answer, credentials and secrets redacted, bodies capped. */
function detailOf(request: FastifyRequest, reply: FastifyReply, payload: unknown, secretHeaders: ReadonlySet<string>): Detail {
  const sent = requestBody(request);
  const answered = responseBody(request, reply, payload);
  return {
    request_headers: headerLines(request.headers, secretHeaders),
    request_body: sent.body,
    request_bytes: sent.bytes,
    response_headers: headerLines(reply.getHeaders(), secretHeaders),
    response_body: answered.body,
    response_bytes: answered.bytes,
  };
}

/** About what the headers of a call come to, allowed for before they are made. */
const HEADERS_ESTIMATE = 512;
const NOBODY: LogFor = { partnerId: undefined, detail: false, counted: 0 };

/**
 * Records every request of this scope (method, path, status, latency, error code, request id) for the dashboard and
 * `logs tail`. A request is logged for the partner of its token once authenticated; one that got no further than its
 * credentials (a failed partner authentication, a refused token, a path no route has) for the partner whose valid app
 * key it carries, or with no app key the partner its token was issued to (credentialsOwner); any other for no partner
 * (seen by operators only); a scope without partner credentials names the owner itself (`ownerOf`: the SimpleFIN
 * scope, by the access or claim token a request carries). A partner's entries keep the headers and bodies too, credentials and secrets redacted,
 * bodies cut at BODY_CAP, as long as that partner's detail allowance lasts (RequestLogWriter.keepsDetail). Keys and
 * tokens are never stored.
 *
 * The partner and the allowance are worked out first, when the body is about to be read (or, for a request refused
 * before that, when it is answered): a request that is nobody's, or whose partner's allowance is spent, costs no
 * copy, parse or redaction of its body, headers or answer.
 */
export function logRequests(scope: FastifyInstance, runtime: Runtime, ownerOf?: (request: FastifyRequest) => string | undefined): void {
  const writer = scope.requestLog;
  const secretHeaders = new Set(['service-app-key', 'service-app-token', ...runtime.config.appKeyHeaders, ...runtime.config.appTokenHeaders]);

  /** Whose log the request lands in and, if a partner's, whether it may keep about `size` characters of detail. */
  const whoseLog = (request: FastifyRequest, size: number): LogFor | Promise<LogFor> => {
    const grant = (partnerId: string | undefined): LogFor => {
      if (partnerId === undefined) return NOBODY;
      return writer.keepsDetail(partnerId, size) ? { partnerId, detail: true, counted: size } : { partnerId, detail: false, counted: 0 };
    };
    if (request.caller !== null) return grant(request.caller.partnerId);
    const named = ownerOf?.(request);
    if (named !== undefined) return grant(named);
    const appKey = appKeyOf(request, runtime);
    const token = appTokenOf(request, runtime);
    if (appKey === undefined && token === undefined) return NOBODY;
    const owner = credentialsOwner(runtime.database, appKey, token);
    // Should the look-up fail (the database went away), the request is still logged, for no partner.
    return owner instanceof Promise ? owner.then(grant, () => NOBODY) : grant(owner);
  };

  scope.addHook('preParsing', (request, _reply, payload, done) => {
    const body = hasBody(request);
    const estimate = HEADERS_ESTIMATE + (body ? Math.min(declaredLength(request) ?? BODY_CAP, BODY_CAP) : 0);
    const decided = (logFor: LogFor) => {
      request.logFor = logFor;
      if (!logFor.detail || !body) return done(null, payload);
      const capture = new BodyCapture(/xml/i.test(request.headers['content-type'] ?? ''));
      request.loggedBody = capture;
      // pipeline: a client that goes away mid-body fails the parse instead of leaving it waiting.
      pipeline(payload, capture, () => undefined);
      done(null, capture);
    };
    const logFor = whoseLog(request, estimate);
    if (logFor instanceof Promise) void logFor.then(decided);
    else decided(logFor);
  });
  scope.addHook('preValidation', (request, _reply, done) => {
    if (request.logFor?.detail) request.loggedRequest = parsedRequestBody(request);
    done();
  });
  scope.addHook('onSend', (request, reply, payload, done) => {
    // Decided already when the body was about to be read; else (refused before) worth keeping if it may be a partner's.
    const keep = request.logFor
      ? request.logFor.detail
      : request.caller !== null || ownerOf?.(request) !== undefined || appKeyOf(request, runtime) !== undefined || appTokenOf(request, runtime) !== undefined;
    if (keep) reply.loggedPayload = payload;
    done(null, payload);
  });
  scope.addHook('onResponse', (request, reply, done) => {
    const payload = reply.loggedPayload;
    reply.loggedPayload = undefined;
    const entry: RequestLogEntry = {
      partner_id: null,
      method: request.method,
      path: storedPath(request.url),
      route: request.is404 ? null : (request.routeOptions.url ?? null),
      status: reply.statusCode,
      latency_ms: Math.round(reply.elapsedTime * 1000) / 1000,
      error_code: reply.errorCode ?? null,
      request_id: String(request.id),
      ip: request.ip,
      created_at_ms: runtime.clock.now(),
      ...NO_DETAIL,
    };
    const owned = (logFor: LogFor): RequestLogEntry => {
      const partnerId = logFor.partnerId;
      if (partnerId === undefined) return entry;
      if (!logFor.detail) return { ...entry, partner_id: partnerId };
      const detail = detailOf(request, reply, payload, secretHeaders);
      // What was counted was an estimate: the partner's allowance pays for what the detail came to.
      writer.countDetail(partnerId, detailSize(detail) - logFor.counted);
      return { ...entry, partner_id: partnerId, ...detail };
    };
    const answered = typeof payload === 'string' || Buffer.isBuffer(payload) ? Math.min(payload.length, BODY_CAP) : 0;
    // Refused before its body was read (an error answer): decided now.
    const logFor = request.logFor ?? whoseLog(request, HEADERS_ESTIMATE + answered);
    if (logFor instanceof Promise) writer.recordWhen(logFor.then(owned));
    else writer.record(owned(logFor));
    done();
  });
}
