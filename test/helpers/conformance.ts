import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import formatsPlugin from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { emptyTally, type ConformanceTally } from './conformance-summary.js';

/**
 * The conformance check (docs/compatibility.md, "Conformance check"): every response an integration test receives
 * through `app.inject` for an operation of the reference description of the real-world service is validated
 * against the reference's response schema for that operation and status. JSON bodies are validated as they are;
 * XML bodies (the reference declares no XML shape) are mapped to JSON after the reference schema, with the root
 * element and element names checked where docs interface.md states them, and validated the same way. Deliberate
 * differences are listed, each with its reason, in test/fixtures/compatibility-allowlist.json.
 */

type Json = Record<string, any>;

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Read at run time, never copied into the project: CI has shared/ beside the clone. */
export const REFERENCE_FILE = path.resolve(ROOT, '..', 'shared', 'reference', 'openapi-full.json');
export const ALLOWLIST_FILE = path.join(ROOT, 'test', 'fixtures', 'compatibility-allowlist.json');

export type BodyFormat = 'json' | 'xml' | 'text' | 'empty';

/** A deliberate difference: problems of this operation and status at this place are not drift. */
export interface AllowListEntry {
  /** operationId of the reference, or several that return the same schema. */
  operation: string | string[];
  /** The HTTP status, exact ("200") or a class ("4XX"). */
  status: string;
  /** Only in this body format (default: any). */
  format?: 'json' | 'xml';
  /** JSON pointer of the value; `*` stands for any one segment (array indices). Missing fields: the field's own pointer. */
  pointer: string;
  /** Only this kind of problem (Ajv keyword such as `type` or `required`, or `noContent`, `xmlRoot`); default any. */
  keyword?: string;
  reason: string;
}

/** A place where the reference contradicts itself; its own words win over its schema. */
export interface ReferenceCorrection {
  /** JSON pointer into the reference document of the schema replaced. */
  schema: string;
  replace: Json;
  reason: string;
}

export interface AllowList {
  differences: AllowListEntry[];
  referenceCorrections: ReferenceCorrection[];
}

export interface Problem {
  format: BodyFormat;
  pointer: string;
  keyword: string;
  message: string;
}

export interface CheckResult {
  operationId: string;
  method: string;
  path: string;
  status: number;
  /**
   * The reference's response key used ("200", "4XX", "default"), or "error" for an error status the operation does
   * not list (checked against the operation's own error body where it has one, else the reference's common error
   * body); undefined for other statuses it does not list.
   */
  responseKey: string | undefined;
  format: BodyFormat;
  /** Problems no allow-list entry covers: drift. */
  problems: Problem[];
  /** Problems an allow-list entry covers, with the entry's index. */
  allowed: Array<{ problem: Problem; entry: number }>;
}

export interface ObservedResponse {
  method: string;
  /** Path and query, as requested. */
  url: string;
  statusCode: number;
  contentType: string;
  body: string;
}

/**
 * XML shapes the interface document states (the reference has none): the root element, and arrays whose items
 * are repeated elements of a stated name. Only for success answers, which is what the interface describes.
 */
const XML_SHAPES: Record<string, { root: string; arrays?: Record<string, string> }> = {
  // "In XML the root element is `root` and each institution is a repeated `institutions` child element."
  GetInstitutions: { root: 'root', arrays: { '/institutions': 'institutions' } },
  // "XML has the same shape with root `root` and repeated `institutions` elements."
  GetCertifiedInstitutions: { root: 'root', arrays: { '/institutions': 'institutions' } },
  // "In XML the root element is `customer`."
  AddTestingCustomer: { root: 'customer' },
};

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

interface ResponseSpec {
  /** The JSON body's schema, when the reference gives one, and its validator (compiled when first needed). */
  jsonSchema?: Json;
  json?: ValidateFunction;
  /** Media types the reference declares (none: the answer has no body). */
  mediaTypes: string[];
}

interface Operation {
  operationId: string;
  method: string;
  path: string;
  pattern: RegExp;
  literals: number;
  responses: Record<string, ResponseSpec>;
  /** The error body of statuses it does not list, when its own listed errors share one of their own (see ownErrorSpec). */
  errorSpec?: ResponseSpec;
}

function pointerGet(doc: Json, pointer: string): any {
  let node: any = doc;
  for (const raw of pointer.split('/').slice(1)) {
    if (node === undefined) return undefined;
    node = node[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

function pointerSet(doc: Json, pointer: string, value: unknown): void {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = parts.pop();
  const parent = pointerGet(doc, parts.length ? `/${parts.join('/')}` : '');
  if (last === undefined || !parent || typeof parent !== 'object') throw new Error(`reference correction: no schema at ${pointer}`);
  parent[last] = value;
}

const escapeSegment = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * OpenAPI 3.0 schema objects as JSON Schema for Ajv: `nullable` becomes a null type, `discriminator` (a hint for
 * code generators) goes, and integer formats on strings (numbers written as strings) get a format of their own.
 */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === 'discriminator' || k === 'nullable') continue;
    out[k] = k === 'example' || k === 'examples' ? v : toJsonSchema(v);
  }
  const obj = node as Json;
  if (obj.nullable === true && typeof obj.type === 'string') out.type = [obj.type, 'null'];
  if (obj.nullable === true && out.enum) out.enum = [...out.enum, null];
  if (obj.format === 'int64' || obj.format === 'int32') {
    // OpenAPI defines int32 and int64 for integers. On a string they mean digits; on a number (the reference has
    // `unitQuantity`, "number of units", with the example 150.42) no format is defined: the type alone applies.
    if (obj.type === 'string') out.format = 'integer-string';
    else if (obj.type === 'number') delete out.format;
  }
  return out;
}

/** Copies a schema with its local references pointed at the registered reference document. */
function anchorRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(anchorRefs);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `reference${v}` : anchorRefs(v);
  return out;
}

function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('s')) return name.slice(0, -1);
  return name;
}

const xmlParser = new XMLParser({ ignoreAttributes: true, ignoreDeclaration: true, ignorePiTags: true, parseTagValue: false, trimValues: true });

/** A schema reduced for walking XML: its types and, merged over allOf, its properties and items. */
interface Flat {
  types: Set<string>;
  properties: Record<string, Json>;
  items?: Json;
}

export class ConformanceChecker {
  readonly operations: Operation[];
  private readonly doc: Json;
  private readonly flatCache = new Map<Json, Flat>();
  /** The reference's common error body, for error statuses an operation does not list. */
  private readonly errorSpec: ResponseSpec;
  private readonly ajv: Ajv;

  constructor(
    reference: Json,
    readonly allowList: AllowList,
  ) {
    const doc = toJsonSchema(structuredClone(reference)) as Json;
    for (const c of allowList.referenceCorrections) pointerSet(doc, c.schema, toJsonSchema(c.replace));
    this.doc = doc;
    const ajv = (this.ajv = new Ajv({ strict: false, allErrors: true, logger: false }));
    formatsPlugin.default(ajv);
    ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
    ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
    ajv.addFormat('float', { type: 'number', validate: () => true });
    ajv.addFormat('double', { type: 'number', validate: () => true });
    ajv.addFormat('integer-string', /^-?\d+$/);
    ajv.addSchema({ components: doc.components }, 'reference');
    this.errorSpec = { mediaTypes: ['application/json'], jsonSchema: { $ref: '#/components/schemas/ErrorMessage' } };

    this.operations = [];
    for (const [p, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        if (!METHODS.includes(method)) continue;
        const segments = p.split('/').slice(1);
        const pattern = new RegExp(`^/${segments.map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`);
        const responses: Record<string, ResponseSpec> = {};
        for (const [status, raw] of Object.entries((op as Json).responses ?? {})) {
          const res = this.resolve(raw as Json);
          const content = (res.content ?? {}) as Json;
          const spec: ResponseSpec = { mediaTypes: Object.keys(content) };
          const schema = content['application/json']?.schema;
          if (schema) spec.jsonSchema = schema;
          responses[status] = spec;
        }
        const errorSpec = this.ownErrorSpec(responses);
        this.operations.push({
          operationId: (op as Json).operationId,
          method: method.toUpperCase(),
          path: p,
          pattern,
          literals: segments.filter((s) => !s.startsWith('{')).length,
          responses,
          ...(errorSpec ? { errorSpec } : {}),
        });
      }
    }
    // The most specific template first: /accounts/simple before /accounts/{accountId}.
    this.operations.sort((a, b) => b.literals - a.literals || b.path.length - a.path.length);
  }

  /**
   * An operation whose listed errors all declare one `{"Errors": {"Error": [...]}}` body (Connect Components, Webhook
   * Subscriptions) answers that body for every error, so an error status it does not list is checked against that
   * body rather than the common one.
   */
  private ownErrorSpec(responses: Record<string, ResponseSpec>): ResponseSpec | undefined {
    const errors = Object.entries(responses)
      .filter(([status]) => /^[45]/.test(status))
      .map(([, spec]) => (spec.jsonSchema ? this.resolve(spec.jsonSchema) : undefined));
    const first = errors[0];
    if (!first || errors.some((e) => !e || JSON.stringify(e) !== JSON.stringify(first))) return undefined;
    if (!((first.required ?? []) as string[]).includes('Errors')) return undefined;
    return { mediaTypes: ['application/json'], jsonSchema: first };
  }

  private resolve(node: Json): Json {
    let n = node;
    while (n && typeof n.$ref === 'string') n = pointerGet(this.doc, n.$ref.slice(1));
    return n;
  }

  /** The reference operation a request is for, by method and concrete path. */
  match(method: string, url: string): Operation | undefined {
    let p = url.split('?')[0]!.split('#')[0]!;
    if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
    const m = method.toUpperCase();
    return this.operations.find((o) => o.method === m && o.pattern.test(p));
  }

  /** Checks one response; undefined when it is for no operation of the reference. */
  check(res: ObservedResponse): CheckResult | undefined {
    const op = this.match(res.method, res.url);
    if (!op) return undefined;
    const status = res.statusCode;
    let responseKey = [String(status), `${String(status)[0]}XX`, `${String(status)[0]}xx`, 'default'].find((k) => k in op.responses);
    // Every error the reference describes has the common error body (its README says so of all errors).
    if (!responseKey && status >= 400) responseKey = 'error';
    const format = bodyFormat(res);
    const result: CheckResult = { operationId: op.operationId, method: op.method, path: op.path, status, responseKey, format, problems: [], allowed: [] };
    if (!responseKey) return result;
    const spec = responseKey === 'error' ? (op.errorSpec ?? this.errorSpec) : op.responses[responseKey]!;
    const problems: Problem[] = [];
    if (spec.mediaTypes.length === 0) {
      if (res.body.length > 0)
        problems.push({
          format,
          pointer: '',
          keyword: 'noContent',
          message: `the reference declares no body for ${responseKey}, got ${res.contentType || 'a body'}`,
        });
    } else if (format === 'empty') {
      if (spec.jsonSchema) problems.push({ format, pointer: '', keyword: 'body', message: 'no body, where the reference declares one' });
    } else if (format === 'json') {
      if (spec.jsonSchema) problems.push(...this.validateJson(spec, res.body));
      else
        problems.push({
          format,
          pointer: '',
          keyword: 'contentType',
          message: `${res.contentType} where the reference declares ${spec.mediaTypes.join(', ')}`,
        });
    } else if (format === 'xml') {
      if (spec.jsonSchema) problems.push(...this.validateXml(op, status, spec, res.body));
    } else if (!spec.mediaTypes.some((t) => res.contentType.toLowerCase().startsWith(t))) {
      problems.push({
        format,
        pointer: '',
        keyword: 'contentType',
        message: `${res.contentType || 'no content type'} where the reference declares ${spec.mediaTypes.join(', ')}`,
      });
    }
    for (const problem of problems) {
      const entry = this.allowListed(op.operationId, status, problem);
      if (entry >= 0) result.allowed.push({ problem, entry });
      else result.problems.push(problem);
    }
    return result;
  }

  private validateJson(spec: ResponseSpec, body: string): Problem[] {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (e) {
      return [{ format: 'json', pointer: '', keyword: 'parse', message: `not JSON: ${(e as Error).message}` }];
    }
    return this.validate(this.validator(spec), value, 'json');
  }

  private validateXml(op: Operation, status: number, spec: ResponseSpec, body: string): Problem[] {
    const valid = XMLValidator.validate(body);
    if (valid !== true) return [{ format: 'xml', pointer: '', keyword: 'parse', message: `not XML: ${valid.err.msg} (line ${valid.err.line})` }];
    let doc: Json;
    try {
      doc = xmlParser.parse(body) as Json;
    } catch (e) {
      return [{ format: 'xml', pointer: '', keyword: 'parse', message: `not XML: ${(e as Error).message}` }];
    }
    const roots = Object.keys(doc);
    if (roots.length !== 1) return [{ format: 'xml', pointer: '', keyword: 'parse', message: `expected one root element, got ${roots.length}` }];
    const problems: Problem[] = [];
    const stated = status < 300 ? XML_SHAPES[op.operationId] : undefined;
    if (stated && roots[0] !== stated.root) {
      problems.push({ format: 'xml', pointer: '', keyword: 'xmlRoot', message: `root element <${roots[0]}>, where the interface states <${stated.root}>` });
    }
    const value = this.fromXml(doc[roots[0]!], spec.jsonSchema!, '', stated?.arrays ?? {}, problems);
    return [...problems, ...this.validate(this.validator(spec), value, 'xml')];
  }

  private validator(spec: ResponseSpec): ValidateFunction {
    spec.json ??= this.ajv.compile(anchorRefs(spec.jsonSchema) as Json);
    return spec.json;
  }

  private validate(validator: ValidateFunction, value: unknown, format: BodyFormat): Problem[] {
    if (validator(value)) return [];
    return (validator.errors ?? []).map((e: ErrorObject) => {
      const missing = e.keyword === 'required' ? `/${escapeSegment(String((e.params as { missingProperty: string }).missingProperty))}` : '';
      const pointer = `${e.instancePath}${missing}`;
      const actual = e.keyword === 'required' ? '' : ` (got ${describe(pointerGet({ v: value }, `/v${e.instancePath}`))})`;
      return { format, pointer, keyword: e.keyword, message: `${e.message ?? e.keyword}${actual}` };
    });
  }

  private flat(schema: Json | undefined): Flat | undefined {
    if (!schema) return undefined;
    const s = this.resolve(schema);
    const cached = this.flatCache.get(s);
    if (cached) return cached;
    const flat: Flat = { types: new Set(), properties: {} };
    this.flatCache.set(s, flat);
    for (const t of [s.type ?? []].flat()) flat.types.add(t);
    Object.assign(flat.properties, s.properties ?? {});
    if (s.items) flat.items = s.items;
    if (Object.keys(flat.properties).length > 0) flat.types.add('object');
    for (const branch of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) {
      const b = this.flat(branch);
      if (!b) continue;
      for (const t of b.types) flat.types.add(t);
      Object.assign(flat.properties, b.properties);
      flat.items ??= b.items;
    }
    return flat;
  }

  /**
   * An XML element's parsed content as the JSON the reference schema describes. An array is its repeated
   * elements, named as the interface states, or by the property (the OpenAPI default) or its singular (how
   * Ledgerlink names items); one element of that name holding only repeated children is a wrapper. An absent
   * array is an empty one (XML cannot tell them apart). Scalars are converted where the text is of the schema's
   * type; anything else is left as found, so that validation reports it.
   */
  private fromXml(value: unknown, schema: Json | undefined, at: string, names: Record<string, string>, problems: Problem[]): unknown {
    const s = this.flat(schema);
    if (!s) return value;
    if (s.types.has('array') && !s.types.has('object')) {
      const list = Array.isArray(value) ? value : value === '' ? [] : [value];
      return list.map((v, i) => this.fromXml(v, s.items, `${at}/${i}`, names, problems));
    }
    if (s.types.has('object') && Object.keys(s.properties).length > 0) {
      if (value === '') value = {};
      if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
      const src = value as Json;
      const out: Json = {};
      const used = new Set<string>();
      for (const [key, propSchema] of Object.entries(s.properties)) {
        const where = `${at}/${escapeSegment(key)}`;
        const ps = this.flat(propSchema);
        if (ps?.types.has('array') && !ps.types.has('object')) {
          out[key] = this.xmlArray(src, key, ps, where, names, used, problems).map((v, i) => this.fromXml(v, ps.items, `${where}/${i}`, names, problems));
        } else if (key in src) {
          used.add(key);
          out[key] = this.fromXml(src[key], propSchema, where, names, problems);
        }
      }
      for (const [key, v] of Object.entries(src)) if (!used.has(key)) out[key] = v;
      return out;
    }
    if (typeof value !== 'string') return value;
    if (s.types.has('string') || s.types.size === 0 || (s.types.has('object') && Object.keys(s.properties).length === 0)) return value;
    if (s.types.has('integer') || s.types.has('number')) {
      if (value === '') return null;
      if (/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value)) return Number(value);
      return value;
    }
    if (s.types.has('boolean')) {
      if (value === 'true' || value === 'false') return value === 'true';
      return value === '' ? null : value;
    }
    return value;
  }

  private xmlArray(src: Json, key: string, ps: Flat, where: string, names: Record<string, string>, used: Set<string>, problems: Problem[]): unknown[] {
    const stated = names[where.replace(/\/\d+(?=\/|$)/g, '/*')];
    if (stated && !(stated in src)) {
      const other = [key, singular(key)].find((n) => n !== stated && n in src);
      if (other)
        problems.push({
          format: 'xml',
          pointer: where,
          keyword: 'xmlName',
          message: `items are <${other}> elements, where the interface states repeated <${stated}> elements`,
        });
    }
    const candidates = stated ? [stated] : [...new Set([key, singular(key)])];
    for (const name of candidates) {
      if (!(name in src)) continue;
      used.add(name);
      const v = src[name];
      const list = Array.isArray(v) ? v : [v];
      if (!stated && name === key && list.length === 1) {
        if (list[0] === '') return [];
        if (this.isWrapper(list[0], ps.items)) {
          const inner = Object.values(list[0] as Json)[0];
          return Array.isArray(inner) ? inner : [inner];
        }
      }
      return list;
    }
    return [];
  }

  private isWrapper(v: unknown, itemSchema: Json | undefined): boolean {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
    const keys = Object.keys(v);
    if (keys.length !== 1) return false;
    const item = this.flat(itemSchema);
    if (!item || Object.keys(item.properties).length === 0) return true;
    return !(keys[0]! in item.properties);
  }

  /** The index of the allow-list entry that covers a problem, or -1. */
  allowListed(operationId: string, status: number, problem: Problem): number {
    return this.allowList.differences.findIndex(
      (e) =>
        [e.operation].flat().some((o) => o === operationId || o === '*') &&
        statusMatches(e.status, status) &&
        (!e.format || e.format === problem.format) &&
        (!e.keyword || e.keyword === problem.keyword) &&
        pointerMatches(e.pointer, problem.pointer),
    );
  }
}

function statusMatches(pattern: string, status: number): boolean {
  if (/^\dXX$/i.test(pattern)) return pattern[0] === String(status)[0];
  return pattern === String(status);
}

function pointerMatches(pattern: string, pointer: string): boolean {
  const a = pattern.split('/');
  const b = pointer.split('/');
  return a.length === b.length && a.every((seg, i) => seg === '*' || seg === b[i]);
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function bodyFormat(res: ObservedResponse): BodyFormat {
  if (res.body.length === 0) return 'empty';
  const type = res.contentType.toLowerCase();
  if (/^application\/([\w.-]+\+)?json/.test(type)) return 'json';
  if (/^(application|text)\/([\w.-]+\+)?xml/.test(type)) return 'xml';
  return 'text';
}

export function loadAllowList(file = ALLOWLIST_FILE): AllowList {
  const list = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<AllowList>;
  return { differences: list.differences ?? [], referenceCorrections: list.referenceCorrections ?? [] };
}

export function loadReference(file = REFERENCE_FILE): Json {
  if (!fs.existsSync(file)) {
    throw new Error(
      `conformance check: the reference description is not at ${file} (shared/ must sit beside the clone; LEDGERLINK_CONFORMANCE=off turns the check off)`,
    );
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
}

export function formatDrift(result: CheckResult): string {
  return [
    `Conformance drift: ${result.operationId} (${result.method} ${result.path}) answered ${result.status} in ${result.format}, which the reference's response schema for ${result.responseKey} does not allow:`,
    ...result.problems.map((p) => `  ${p.pointer || '(body)'} ${p.keyword}: ${p.message}`),
    'Fix the response or, when the difference is deliberate, describe it in docs/compatibility.md and list it in test/fixtures/compatibility-allowlist.json.',
  ].join('\n');
}

export class ConformanceDrift extends Error {
  constructor(readonly result: CheckResult) {
    super(formatDrift(result));
    this.name = 'ConformanceDrift';
  }
}

/** fail (default): a drift fails the request's test; report: only recorded in the summary; off: no check. */
export type ConformanceMode = 'fail' | 'report' | 'off';
export function conformanceMode(): ConformanceMode {
  const v = process.env.LEDGERLINK_CONFORMANCE;
  return v === 'off' || v === 'report' ? v : 'fail';
}

/** What this test file's requests were checked against, and what was found (conformance-setup.ts writes it out). */
export const tally: ConformanceTally = emptyTally();

/** Starts the counts again: each test file's are written on their own, also where files share a process's modules. */
export function resetTally(): void {
  Object.assign(tally, emptyTally());
}
/** Drifts since the last test began, for the per-test safety net (a test that swallows the thrown error still fails). */
export const recentDrifts: CheckResult[] = [];

let shared: ConformanceChecker | undefined;
export function sharedChecker(): ConformanceChecker {
  shared ??= new ConformanceChecker(loadReference(), loadAllowList());
  return shared;
}

/** Records one response in the tally; returns the result when it drifts. */
export function record(result: CheckResult | undefined): CheckResult | undefined {
  if (!result) {
    tally.outOfScope += 1;
    return undefined;
  }
  tally.inScope += 1;
  const status = String(result.status);
  if (!result.responseKey) {
    const op = (tally.unchecked[result.operationId] ??= {});
    op[status] = (op[status] ?? 0) + 1;
    return undefined;
  }
  const op = (tally.checked[result.operationId] ??= {});
  const counts = (op[status] ??= { json: 0, xml: 0, text: 0, empty: 0, allowed: 0, drifts: 0 });
  counts[result.format] += 1;
  for (const entry of new Set(result.allowed.map((a) => a.entry))) {
    tally.allowListHits[String(entry)] = (tally.allowListHits[String(entry)] ?? 0) + 1;
  }
  if (result.allowed.length > 0) counts.allowed += 1;
  if (result.problems.length === 0) return undefined;
  counts.drifts += 1;
  // One record per place and kind of problem, array indices as `*` (an allow-list pointer); count: responses.
  const seen = new Set<string>();
  for (const p of result.problems) {
    const pointer = p.pointer.replace(/\/\d+(?=\/|$)/g, '/*');
    const key = `${p.format} ${pointer} ${p.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const same = tally.drifts.find((d) => d.operation === result.operationId && d.status === status && `${d.format} ${d.pointer} ${d.keyword}` === key);
    if (same) same.count += 1;
    else
      tally.drifts.push({
        operation: result.operationId,
        method: result.method,
        path: result.path,
        status,
        format: p.format,
        pointer,
        keyword: p.keyword,
        message: p.message,
        count: 1,
      });
  }
  return result;
}

interface InjectedResponse {
  statusCode: number;
  headers: Record<string, unknown>;
  body?: string;
  raw: { req: { method?: string; url?: string } };
}

function inspect(res: InjectedResponse): void {
  // A response read as a stream (payloadAsStream) has no body to check.
  if (typeof res.body !== 'string') return;
  const method = res.raw.req.method ?? 'GET';
  if (method === 'HEAD' || method === 'OPTIONS') return;
  const result = record(
    sharedChecker().check({
      method,
      url: res.raw.req.url ?? '/',
      statusCode: res.statusCode,
      contentType: String(res.headers['content-type'] ?? ''),
      body: res.body,
    }),
  );
  if (!result) return;
  recentDrifts.push(result);
  if (conformanceMode() === 'fail') throw new ConformanceDrift(result);
}

/**
 * Wraps `app.inject` so that every answer to a request for a reference operation is checked. The chained form
 * (`app.inject().get(...)`) and requests to a listening server (fetch) are not checked.
 */
export function checkConformance<T extends object>(app: T): T {
  if (conformanceMode() === 'off') return app;
  sharedChecker();
  const target = app as unknown as { inject: (...args: unknown[]) => unknown };
  const original = target.inject.bind(app);
  target.inject = (...args: unknown[]) => {
    const [opts, callback] = args;
    if (opts === undefined) return original();
    if (typeof callback === 'function') {
      return original(opts, (err: unknown, res: InjectedResponse) => {
        if (err || !res) return callback(err, res);
        try {
          inspect(res);
        } catch (e) {
          return callback(e, res);
        }
        return callback(null, res);
      });
    }
    return (original(opts) as Promise<InjectedResponse>).then((res) => {
      inspect(res);
      return res;
    });
  };
  return app;
}
