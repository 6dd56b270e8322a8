import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ServiceError } from '../../errors/service-error.js';
import { branchFor, typesOf, type XmlSchema } from './schema-walk.js';

export const MAX_XML_DEPTH = 32;

const parser = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  trimValues: true,
  // Only the five predefined entities and character references can remain: declarations are refused below.
  processEntities: true,
  htmlEntities: false,
});

/** Refuses DOCTYPE/ENTITY declarations and excessive nesting before any parser sees the document. */
function guard(text: string): void {
  if (/<!DOCTYPE|<!ENTITY|<!ELEMENT|<!ATTLIST/i.test(text)) throw new ServiceError('XmlDoctypeRefused');
  let depth = 0;
  for (let i = text.indexOf('<'); i !== -1; i = text.indexOf('<', i + 1)) {
    const next = text.charCodeAt(i + 1);
    if (text.startsWith('<!--', i)) {
      i = skipPast(text, i, '-->');
    } else if (text.startsWith('<![CDATA[', i)) {
      i = skipPast(text, i, ']]>');
    } else if (next === 47 /* / */) {
      depth--;
    } else if (next !== 63 /* ? */ && next !== 33 /* ! */) {
      const end = text.indexOf('>', i);
      if (end === -1) return;
      if (text.charCodeAt(end - 1) !== 47 /* self-closing */) depth++;
      if (depth > MAX_XML_DEPTH) throw new ServiceError('XmlTooDeep', `XML nested deeper than ${MAX_XML_DEPTH} levels`);
    }
    if (i === -1) return;
  }
}

function skipPast(text: string, from: number, terminator: string): number {
  const end = text.indexOf(terminator, from);
  return end === -1 ? -1 : end + terminator.length - 1;
}

/** Parses an XML body to plain values (strings, objects, arrays) without schema knowledge. */
export function parseXmlDocument(text: string): unknown {
  guard(text);
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new ServiceError('MalformedBody', `Malformed XML: ${valid.err.msg} (line ${valid.err.line})`);
  }
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(text) as Record<string, unknown>;
  } catch (e) {
    // The validator lets a few broken declarations through (`<!D` inside an element) that the parser refuses.
    throw new ServiceError('MalformedBody', `Malformed XML: ${(e as Error).message}`);
  }
  const roots = Object.keys(doc);
  if (roots.length !== 1) throw new ServiceError('MalformedBody', 'Malformed XML: expected exactly one root element');
  const root = doc[roots[0]!];
  return root === '' ? {} : root;
}

/**
 * Shapes a parsed XML value after the body schema: single elements become arrays where the schema
 * wants arrays, wrapped arrays are unwrapped, empty elements of non-string fields count as absent.
 * Type conversion of scalars is left to the validator (it coerces "12" and "true").
 */
export function shapeBySchema(value: unknown, schema: XmlSchema | undefined): unknown {
  if (!schema) return value;
  const types = typesOf(schema);
  if (types.includes('array') && !types.includes('object')) {
    const s = branchFor(schema, []);
    let v = value;
    const itemName = s.items?.xml?.name;
    if (s.xml?.wrapped && v && typeof v === 'object' && !Array.isArray(v)) {
      const inner = itemName ? (v as Record<string, unknown>)[itemName] : Object.values(v as object)[0];
      v = inner ?? [];
    } else if (v === '') {
      v = [];
    }
    const list = Array.isArray(v) ? v : [v];
    return list.map((item) => shapeBySchema(item, s.items));
  }
  if (types.includes('object')) {
    if (value === '') return {};
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const s = branchFor(schema, {});
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const shaped = shapeBySchema(v, s.properties?.[key] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined));
      if (shaped !== undefined) out[key] = shaped;
    }
    return out;
  }
  if (value === '' && types.length > 0 && !types.includes('string')) return undefined;
  return value;
}
