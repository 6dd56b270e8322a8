import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ScopeName } from '../scopes.js';
import fp from 'fastify-plugin';
import type { Runtime } from '../../platform/dependencies.js';
import { docsPage } from './docs-page.js';

type Json = Record<string, unknown>;

declare module 'fastify' {
  interface FastifySchema {
    /**
     * For the description only: a body sent as a file in one of these media types (statement uploads), which the
     * route reads as bytes and no validator checks.
     */
    fileBody?: { description: string; content: Record<string, { schema: Json }> };
  }
}

const MEDIA_TYPES = ['application/json', 'application/xml'];

const NAME_MARK = 'x-component';
const MEDIA_MARK = 'x-media-type';
const STATUS_TEXT: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  203: 'Non-authoritative information',
  204: 'No content',
  400: 'Bad request: a missing, blank or invalid field, or a malformed body (see docs/errors.md)',
  401: 'Unauthorized: missing, invalid or expired credentials, or a locked partner',
  403: 'Forbidden',
  404: "Not found (another partner's ids look exactly like unknown ids)",
  406: 'Not acceptable: Accept allows neither JSON nor XML',
  409: 'Conflict',
  413: 'Request body too large',
  415: 'Unsupported Content-Type',
  422: 'Unprocessable: the body was read but cannot be used as it is (see the error code and its details)',
  429: 'Too many requests (see Retry-After)',
  503: 'Service unavailable',
};

type FastifySchemaFileBody = NonNullable<import('fastify').FastifySchema['fileBody']>;

/** Copies a route schema, turning TypeBox `$id`s into a mark that survives the swagger conversion. */
function markNamedSchemas(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(markNamedSchemas);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === '$id' && typeof v === 'string') out[NAME_MARK] = v;
    else out[k] = markNamedSchemas(v);
  }
  return out;
}

/** Moves every marked schema into components.schemas and points to it with `$ref`. */
function hoistNamedSchemas(doc: Json): void {
  const components = (doc.components ??= {}) as Json;
  const schemas = (components.schemas ??= {}) as Record<string, Json>;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const obj = node as Json;
    const out: Json = {};
    for (const [k, v] of Object.entries(obj)) out[k] = visit(v);
    const id = out[NAME_MARK];
    if (typeof id === 'string' && /^[A-Za-z][\w.-]*$/.test(id)) {
      delete out[NAME_MARK];
      schemas[id] ??= out;
      return { $ref: `#/components/schemas/${id}` };
    }
    return out;
  };
  doc.paths = visit(doc.paths);
  for (const [name, schema] of Object.entries(schemas)) schemas[name] = visit(schema) as Json;
}

/** Paths served in JSON only, as the reference describes them (Connect Components, src/http/connect-components). */
const JSON_ONLY_PATHS = ['/connect-components/'];

/** Every body and response is available as JSON and as XML from the same schema, but on the JSON-only paths. */
function addXmlMediaTypes(doc: Json): void {
  for (const [url, path] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, Json>>)) {
    if (JSON_ONLY_PATHS.some((prefix) => url.startsWith(prefix))) continue;
    for (const op of Object.values(path)) {
      const targets: Json[] = [];
      const body = op.requestBody as Json | undefined;
      // A file body (fileBody) keeps its own media types.
      if (body?.content && 'application/json' in (body.content as Json)) targets.push(body);
      for (const res of Object.values((op.responses ?? {}) as Record<string, Json>)) if (res.content) targets.push(res);
      for (const t of targets) {
        const content = t.content as Record<string, Json>;
        const json = content['application/json'] ?? Object.values(content)[0];
        if (!json) continue;
        const schema = json.schema as Json;
        const own = schema[MEDIA_MARK];
        if (Array.isArray(own)) {
          delete schema[MEDIA_MARK];
          t.content = Object.fromEntries((own as [string, Json][]).map(([type, own]) => [type, { ...json, schema: own }]));
          continue;
        }
        t.content = Object.fromEntries(MEDIA_TYPES.map((m) => [m, content[m] ?? { schema: json.schema }]));
      }
    }
  }
}

/** The OpenAPI 3.1 description, generated from the schemas of the routes registered after it (served by docsRoutes). */
export const openapiPlugin = fp(
  async (app: FastifyInstance, opts: { runtime: Runtime; version: string }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Ledgerlink API',
          version: opts.version,
          description:
            'Financial data aggregation: partner authentication, customers, institutions, accounts, transactions, Connect and TxPUSH. Every operation reads and writes JSON or XML (Content-Type / Accept), but Connect Components, JSON only. Errors are `{code, message}` (Connect Components: `{"Errors": {"Error": [{"ReasonCode": code, ...}]}}`); the codes are listed in docs/errors.md.',
          license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
        },
        servers: [{ url: opts.runtime.config.publicUrl }],
        components: {
          securitySchemes: {
            ServiceAppKey: { type: 'apiKey', in: 'header', name: 'Service-App-Key', description: 'The app key from the developer dashboard' },
            ServiceAppToken: { type: 'apiKey', in: 'header', name: 'Service-App-Token', description: 'A token from partner authentication, valid two hours' },
          },
        },
        security: [{ ServiceAppKey: [], ServiceAppToken: [] }],
      },
      transform: ({ schema, url, route }) => {
        const scope = (route.config as { scope?: ScopeName } | undefined)?.scope;
        const s = markNamedSchemas(schema) as Json;
        const fileBody = s.fileBody as FastifySchemaFileBody | undefined;
        if (fileBody) {
          delete s.fileBody;
          s.body = { content: fileBody.content, description: fileBody.description };
        }
        const response = s.response as Record<string, Json> | undefined;
        for (const [status, r] of Object.entries(response ?? {})) {
          // A body in its own media type ({content: {'image/svg+xml': {schema}}}) travels through the swagger
          // conversion as a marked schema; addXmlMediaTypes puts it back under that media type.
          // A file in one of several media types (an export) keeps each of them with its own schema.
          const media = Object.entries((r.content ?? {}) as Record<string, Json>);
          const body = media.length > 0 ? { ...(media[0]![1].schema as Json), [MEDIA_MARK]: media.map(([type, m]) => [type, m.schema]) } : r;
          response![status] = { ...body, 'x-response-description': STATUS_TEXT[status] ?? 'Response' };
        }
        if (scope !== 'api' && scope !== 'api-key' && !s.operationId) s.hide = true;
        if (scope === 'api-key') s.security ??= [{ ServiceAppKey: [] }];
        else if (scope !== 'api') s.security = [];
        return { schema: s as never, url };
      },
      transformObject: (documentObject) => {
        const doc = structuredClone((documentObject as { openapiObject: Json }).openapiObject);
        hoistNamedSchemas(doc);
        addXmlMediaTypes(doc);
        return doc as never;
      },
    });
  },
  { name: 'ledgerlink-openapi' },
);

/**
 * /openapi.json and /openapi.yaml (also at /docs/json and /docs/yaml, where clients of the earlier docs page fetch
 * them), and the /docs page.
 */
export async function docsRoutes(scope: FastifyInstance): Promise<void> {
  const json = async () => scope.swagger();
  const yaml = async (_req: unknown, reply: FastifyReply) => reply.type('application/yaml; charset=utf-8').send(scope.swagger({ yaml: true }));
  for (const prefix of ['/openapi.', '/docs/']) {
    scope.get(`${prefix}json`, { schema: { hide: true } }, json);
    scope.get(`${prefix}yaml`, { schema: { hide: true } }, yaml);
  }
  docsPage(scope, () => scope.swagger() as unknown as Json);
}
