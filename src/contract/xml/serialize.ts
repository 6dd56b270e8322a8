import { branchFor, elementName, typesOf, type XmlSchema } from './schema-walk.js';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
// Characters XML 1.0 cannot carry at all; they are dropped rather than producing a broken document.
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

// Any character escapeXml changes: most texts have none and are returned as they are.
const NEEDS_ESCAPE = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** Escapes text content for XML. */
export function escapeXml(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(INVALID_XML_CHARS, '').replace(/[&<>]/g, (c) => ESCAPES[c]!);
}

function scalarText(value: unknown): string {
  if (typeof value === 'string') return escapeXml(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return String(value);
}

type Write = (value: unknown) => string;
type WriteBody = (value: Record<string, unknown>) => string;

const writers = new WeakMap<XmlSchema, Map<string | undefined, Write>>();
/** Stands for "no schema" among the writers kept (a WeakMap cannot be keyed by undefined). */
const NO_SCHEMA: XmlSchema = {};

/**
 * The function that renders a value as an XML document shaped by its JSON schema: the root element from
 * `rootName`, else the schema's `xml.name`, else `root`. The schema's walk (element names, union branches, property
 * lists) is done once, not for every value, and the writer is kept per schema object and root name, so a route's
 * schema is compiled on its first XML answer. The one way Ledgerlink renders XML: answers, errors, notifications.
 */
export function xmlWriter(schema: XmlSchema | undefined, rootName?: string): Write {
  const key = schema ?? NO_SCHEMA;
  let byRoot = writers.get(key);
  if (!byRoot) writers.set(key, (byRoot = new Map()));
  let write = byRoot.get(rootName);
  const records = write ? undefined : recordUnion(schema);
  if (records) {
    // An answer of one of several shapes (an upload or its preview): each value is written as the record it is.
    write = (value) => xmlWriter(recordBranch(records, value), rootName)(value);
    byRoot.set(rootName, write);
  }
  if (!write) {
    const root = elementName(rootName ?? schema?.xml?.name ?? 'root');
    const body = objectBodyWriter(schema);
    const whole = valueWriter(root, schema);
    write = (value) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? `${DECLARATION}<${root}>${body(value as Record<string, unknown>)}</${root}>`
        : DECLARATION + whole(value);
    byRoot.set(rootName, write);
  }
  return write;
}

/** The branches of a union of records (objects with declared members), or undefined. */
export function recordUnion(schema: XmlSchema | undefined): XmlSchema[] | undefined {
  const branches = schema?.anyOf ?? schema?.oneOf;
  return branches && branches.length > 1 && branches.every((b) => b.properties !== undefined) ? branches : undefined;
}

/**
 * The record a value is: the first branch whose required members it has and whose fixed members (a `const` or an
 * `enum`, such as a step's name) it matches; the first branch when none fits.
 */
export function recordBranch(branches: XmlSchema[], value: unknown): XmlSchema {
  if (value === null || typeof value !== 'object') return branches[0]!;
  const record = value as Record<string, unknown>;
  const fits = (branch: XmlSchema) =>
    ((branch.required as string[] | undefined) ?? []).every((key) => key in record) &&
    Object.entries(branch.properties ?? {}).every(([key, member]) => !(key in record) || matchesFixed(member, record[key]));
  return branches.find(fits) ?? branches[0]!;
}

/** Whether a value is one a member's `const` or `enum` allows (any value when it has neither). */
function matchesFixed(member: XmlSchema, value: unknown): boolean {
  if ('const' in member) return member.const === value;
  if (Array.isArray(member.enum)) return member.enum.includes(value);
  return true;
}

function valueWriter(name: string, schema: XmlSchema | undefined): Write {
  const tag = elementName(name);
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const empty = `<${tag}/>`;
  // A union's branch depends only on the value's kind; each is compiled at its first use (a schema may contain itself).
  let array: Write | undefined;
  let object: WriteBody | undefined;
  return (value) => {
    if (value === undefined) return '';
    if (value === null) return empty;
    if (Array.isArray(value)) {
      array ??= arrayWriter(name, open, close, schema ? branchFor(schema, value) : undefined);
      return array(value);
    }
    if (typeof value === 'object') {
      object ??= objectBodyWriter(schema ? branchFor(schema, value) : undefined);
      return open + object(value as Record<string, unknown>) + close;
    }
    return open + scalarText(value) + close;
  };
}

function arrayWriter(name: string, open: string, close: string, schema: XmlSchema | undefined): Write {
  const items = schema?.items;
  const item = valueWriter(items?.xml?.name ?? name, items);
  const wrapped = Boolean(schema?.xml?.wrapped);
  return (value) => {
    let out = wrapped ? open : '';
    for (const element of value as unknown[]) out += item(element);
    return wrapped ? out + close : out;
  };
}

function objectBodyWriter(schema: XmlSchema | undefined): WriteBody {
  const props = schema?.properties;
  const extra = schema && typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  if (props) {
    const fields = Object.keys(props).map((key) => ({ key, write: valueWriter(key, props[key]) }));
    const declared = (value: Record<string, unknown>) => {
      let out = '';
      for (const field of fields) out += field.write(value[field.key]);
      return out;
    };
    if (!extra) return declared;
    // A free-form map (additionalProperties) keeps the keys the schema does not name, after those it does.
    return (value) => {
      let out = declared(value);
      for (const key of Object.keys(value)) if (!(key in props)) out += freeMember(key, value[key], extra);
      return out;
    };
  }
  // No declared properties: a free-form object, rendered as it is, unless the schema says it has no members at all.
  if (schema && !extra && typesOf(schema).length > 0 && schema.additionalProperties === false) return () => '';
  return (value) => {
    let out = '';
    for (const key of Object.keys(value)) out += freeMember(key, value[key], extra);
    return out;
  };
}

/** A member of a free-form object: its name comes with the value, so its writer is made for this value alone. */
function freeMember(key: string, value: unknown, schema: XmlSchema | undefined): string {
  return valueWriter(key, schema)(value);
}
