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

function writeValue(out: string[], name: string, value: unknown, schema: XmlSchema | undefined): void {
  if (value === undefined) return;
  const tag = elementName(name);
  if (value === null) {
    out.push(`<${tag}/>`);
    return;
  }
  const s = schema ? branchFor(schema, value) : undefined;
  if (Array.isArray(value)) {
    const items = s?.items;
    const itemName = items?.xml?.name ?? name;
    if (s?.xml?.wrapped) {
      out.push(`<${tag}>`);
      for (const item of value) writeValue(out, itemName, item, items);
      out.push(`</${tag}>`);
    } else {
      for (const item of value) writeValue(out, itemName, item, items);
    }
    return;
  }
  if (typeof value === 'object') {
    out.push(`<${tag}>`);
    writeObjectBody(out, value as Record<string, unknown>, s);
    out.push(`</${tag}>`);
    return;
  }
  out.push(`<${tag}>${scalarText(value)}</${tag}>`);
}

function writeObjectBody(out: string[], value: Record<string, unknown>, schema: XmlSchema | undefined): void {
  const props = schema?.properties;
  if (props) {
    for (const key of Object.keys(props)) writeValue(out, key, value[key], props[key]);
    // Free-form maps (additionalProperties) keep the keys the schema does not name.
    const extra = schema?.additionalProperties;
    if (extra && typeof extra === 'object') {
      for (const key of Object.keys(value)) if (!(key in props)) writeValue(out, key, value[key], extra);
    }
    return;
  }
  const extra = schema && typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  // No declared properties: a free-form object, rendered as it is.
  if (!schema || extra || typesOf(schema).length === 0 || schema.additionalProperties !== false) {
    for (const key of Object.keys(value)) writeValue(out, key, value[key], extra);
  }
}

/** Renders a value as an XML document shaped by its JSON schema: root from `xml.name` (default `root`). */
export function toXml(value: unknown, schema: XmlSchema | undefined, rootName?: string): string {
  const root = elementName(rootName ?? schema?.xml?.name ?? 'root');
  const out: string[] = [DECLARATION];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    out.push(`<${root}>`);
    writeObjectBody(out, value as Record<string, unknown>, schema);
    out.push(`</${root}>`);
  } else {
    writeValue(out, root, value, schema);
  }
  return out.join('');
}

type Write = (value: unknown) => string;
type WriteBody = (value: Record<string, unknown>) => string;

const writers = new WeakMap<XmlSchema, Map<string | undefined, Write>>();

/**
 * toXml for one schema, with the schema's walk (element names, union branches, property lists) done once instead
 * of for every value: the same document, for the API's answers, which every XML read renders. toXml is its plain
 * twin, and renders free-form parts (a schema without properties, or keys only additionalProperties describes)
 * for it too. Kept per schema object, so a route's schema is compiled on its first XML answer.
 */
export function xmlWriter(schema: XmlSchema | undefined, rootName?: string): Write {
  if (!schema) return (value) => toXml(value, schema, rootName);
  let byRoot = writers.get(schema);
  if (!byRoot) writers.set(schema, (byRoot = new Map()));
  let write = byRoot.get(rootName);
  if (!write) {
    const root = elementName(rootName ?? schema.xml?.name ?? 'root');
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
  const extra = schema?.additionalProperties;
  // Free-form parts (no declared properties, or keys only additionalProperties describes): the plain walk.
  if (!props || (extra && typeof extra === 'object')) {
    return (value) => {
      const out: string[] = [];
      writeObjectBody(out, value, schema);
      return out.join('');
    };
  }
  const fields = Object.keys(props).map((key) => ({ key, write: valueWriter(key, props[key]) }));
  return (value) => {
    let out = '';
    for (const field of fields) out += field.write(value[field.key]);
    return out;
  };
}
