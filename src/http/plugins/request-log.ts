import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pipeline, Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BODY_CAP, bodyText, capped, headerLines, isSecretField, redactBody } from '../../modules/requestlog/redact.js';
import { credentialsOwner, detailSize, NO_DETAIL, type RequestLogEntry, RequestLogWriter } from '../../modules/requestlog/service.js';
import { redactQuerySecrets } from '../../platform/redact-query.js';
import type { Runtime } from '../../platform/dependencies.js';
import { appKeyOf, appTokenOf } from './auth.js';
import { responseSchemaFor } from './content.js';

declare module 'fastify' {
  interface FastifyReply {
    /** The catalogue code of the error this reply carries, for the request log. */
    errorCode: string | undefined;
    /** What the reply sent (after serialisation), for the request log of a partner's request. */
    loggedPayload: unknown;
  }
  interface FastifyRequest {
    /** The first bytes of the request body as they arrived, for the request log of a partner's request. */
    loggedBody: BodyCapture | null;
  }
  interface FastifyInstance {
    requestLog: RequestLogWriter;
  }
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

/** Passes a request body through unchanged, keeping a copy of its first BODY_CAP bytes and counting all of them. */
class BodyCapture extends Transform {
  /** Bytes that went through so far. */
  bytes = 0;
  /** Whether the whole body went through. */
  ended = false;
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.bytes += bytes.length;
    if (this.keptBytes < BODY_CAP) {
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
    app.decorateRequest('loggedBody', null);
    // Set first, so answers of every scope carry it, errors of later hooks included.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      done();
    });
    app.addHook('onClose', async () => writer.close());
  },
  { name: 'ledgerlink-request-log' },
);

/** The path as the request log keeps it: secrets in its query string redacted (it is shown on the dashboard), at most 500 characters. */
function storedPath(url: string): string {
  const path = redactQuerySecrets(url);
  return path.length > 500 ? `${path.slice(0, 500)}…` : path;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

type Detail = Pick<RequestLogEntry, keyof typeof NO_DETAIL>;

/** The request body as the log keeps it: its text (redacted, capped) and its size; a body never read has no size. */
function requestBody(request: FastifyRequest): { body: string | null; bytes: number | null } {
  const capture = request.loggedBody;
  if (!capture) return { body: null, bytes: hasBody(request) ? null : 0 };
  if (!capture.ended && capture.bytes === 0) return { body: null, bytes: null };
  const declared = Number(request.headers['content-length']);
  const bytes = capture.ended || !Number.isSafeInteger(declared) ? capture.bytes : declared;
  const text = bodyText(capture.first(), bytes);
  return { body: text === undefined ? null : capped(redactBody(text)), bytes };
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
 * Whether an answer of this schema can hold a field with a secret's name. Answers are serialised from their schema,
 * which writes only the properties it names, so where none has such a name (and none is free-form) the body's fields
 * need no redaction: the common case of large answers (transactions, accounts, institutions) costs no scan of them.
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
    return Object.entries(s.properties).some(([name, sub]) => isSecretField(name) || mayHoldSecretFields(sub, depth + 1));
  }
  if (types.includes('array')) return mayHoldSecretFields(s.items, depth + 1);
  return false;
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

/** The response body as the log keeps it: its text (redacted, capped) and its size. */
function responseBody(request: FastifyRequest, reply: FastifyReply): { body: string | null; bytes: number | null } {
  // Nothing goes out for these, whatever the serialiser made.
  if (reply.statusCode === 204 || reply.statusCode === 304 || request.method === 'HEAD') return { body: null, bytes: 0 };
  const payload = reply.loggedPayload;
  const declared = Number(reply.getHeader('content-length'));
  let text: string | undefined;
  let bytes: number | null;
  if (typeof payload === 'string') {
    // A copy of the start of a long answer: a slice would keep all of it in memory until the entry is written.
    text = payload.length > BODY_CAP ? Buffer.from(payload.slice(0, BODY_CAP)).toString() : payload;
    bytes = Number.isSafeInteger(declared) ? declared : Buffer.byteLength(payload);
  } else if (Buffer.isBuffer(payload)) {
    text = bodyText(payload, payload.length);
    bytes = payload.length;
  } else if (payload === undefined || payload === null) {
    return { body: null, bytes: Number.isSafeInteger(declared) ? declared : 0 };
  } else {
    // A stream: not kept.
    return { body: null, bytes: Number.isSafeInteger(declared) ? declared : null };
  }
  if (text === undefined || text === '') return { body: text === '' ? '' : null, bytes };
  return { body: capped(redactBody(text, answerMayHoldSecretFields(request, reply))), bytes };
}

/** About what the headers and bodies of a call come to, worked out before they are made: bodies as capped, headers allowed for. */
function detailEstimate(request: FastifyRequest, reply: FastifyReply): number {
  const payload = reply.loggedPayload;
  const answered = typeof payload === 'string' || Buffer.isBuffer(payload) ? Math.min(payload.length, BODY_CAP) : 0;
  return 512 + Math.min(request.loggedBody?.bytes ?? 0, BODY_CAP) + answered;
}

/** Headers and bodies of a request and its answer, credentials and secrets redacted, bodies capped. */
function detailOf(request: FastifyRequest, reply: FastifyReply, secretHeaders: ReadonlySet<string>): Detail {
  const sent = requestBody(request);
  const answered = responseBody(request, reply);
  return {
    request_headers: headerLines(request.headers, secretHeaders),
    request_body: sent.body,
    request_bytes: sent.bytes,
    response_headers: headerLines(reply.getHeaders(), secretHeaders),
    response_body: answered.body,
    response_bytes: answered.bytes,
  };
}

/**
 * Records every request of this scope (method, path, status, latency, error code, request id) for the dashboard and
 * `logs tail`. A request is logged for the partner of its token once authenticated; one that got no further than its
 * credentials (a failed partner authentication, a refused token, a path no route has) for the partner whose valid app
 * key it carries, or with no app key the partner its token was issued to (credentialsOwner); any other for no partner
 * (seen by operators only). A partner's entries keep the
 * headers and bodies too, credentials and secrets redacted, bodies cut at BODY_CAP. Keys and tokens are never stored.
 */
export function logRequests(scope: FastifyInstance, runtime: Runtime): void {
  const writer = scope.requestLog;
  const secretHeaders = new Set(['service-app-key', 'service-app-token', ...runtime.config.appKeyHeaders, ...runtime.config.appTokenHeaders]);
  /** Whether the request may be logged for a partner, so its body and answer are worth keeping. */
  const forPartner = (request: FastifyRequest) =>
    request.caller !== null || appKeyOf(request, runtime) !== undefined || appTokenOf(request, runtime) !== undefined;

  scope.addHook('preParsing', (request, _reply, payload, done) => {
    if (!hasBody(request) || !forPartner(request)) return done(null, payload);
    const capture = new BodyCapture();
    request.loggedBody = capture;
    // pipeline: a client that goes away mid-body fails the parse instead of leaving it waiting.
    pipeline(payload, capture, () => undefined);
    done(null, capture);
  });
  scope.addHook('onSend', (request, reply, payload, done) => {
    if (forPartner(request)) reply.loggedPayload = payload;
    done(null, payload);
  });
  scope.addHook('onResponse', (request, reply, done) => {
    const summary = (partnerId: string | null, detail: Detail): RequestLogEntry => ({
      partner_id: partnerId,
      method: request.method,
      path: storedPath(request.url),
      route: request.is404 ? null : (request.routeOptions.url ?? null),
      status: reply.statusCode,
      latency_ms: Math.round(reply.elapsedTime * 1000) / 1000,
      error_code: reply.errorCode ?? null,
      request_id: String(request.id),
      ip: request.ip,
      created_at_ms: runtime.clock.now(),
      ...detail,
    });
    const caller = request.caller;
    if (caller !== null) {
      const keep = writer.keepsDetail(detailEstimate(request, reply));
      writer.record(summary(caller.partnerId, keep ? detailOf(request, reply, secretHeaders) : NO_DETAIL));
    } else {
      const appKey = appKeyOf(request, runtime);
      const token = appTokenOf(request, runtime);
      if (appKey === undefined && token === undefined) writer.record(summary(null, NO_DETAIL));
      else {
        const entry = summary(null, NO_DETAIL);
        const detail = detailOf(request, reply, secretHeaders);
        // Made before the partner is known (the request is gone by then), counted only for a partner's entry.
        const owned = (id: string | undefined): RequestLogEntry =>
          id === undefined ? entry : { ...entry, partner_id: id, ...(writer.keepsDetail(detailSize(detail)) ? detail : NO_DETAIL) };
        const owner = credentialsOwner(runtime.database, appKey, token);
        // Should the look-up fail (the database went away), the request is still logged, for no partner.
        writer.recordWhen(owner instanceof Promise ? owner.then(owned, () => entry) : owned(owner));
      }
    }
    reply.loggedPayload = undefined;
    done();
  });
}
