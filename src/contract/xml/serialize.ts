import { branchFor, elementName, typesOf, type XmlSchema } from './schema-walk.js';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
// Characters XML 1.0 cannot carry at all; they are dropped rather than producing a broken document.
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Escapes text content for XML. */
export function escapeXml(text: string): string {
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
