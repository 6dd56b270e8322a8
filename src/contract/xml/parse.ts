import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ServiceError } from '../errors/service-error.js';
import { branchFor, typesOf, type XmlSchema } from './schema-walk.js';

export const MAX_XML_DEPTH = 32;

// The parser enforces the nesting limit itself while it reads, in one linear pass: a hand-written pre-scan
// was quadratic on bodies of many `<` and could be fooled by `/>` inside attribute values.
const parser = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  trimValues: true,
  // Only the five predefined entities and character references can remain: declarations are refused below.
  processEntities: true,
  htmlEntities: false,
  // It counts the elements enclosing the one being opened, so the root alone is 0.
  maxNestedTags: MAX_XML_DEPTH - 1,
});

const NESTING_EXCEEDED = 'Maximum nested tags exceeded';
const DECLARATION = /<!(?:DOCTYPE|ENTITY|ELEMENT|ATTLIST)/i;

/** Parses an XML body to plain values (strings, objects, arrays) without schema knowledge. */
export function parseXmlDocument(text: string): unknown {
  if (DECLARATION.test(text)) throw new ServiceError('XmlDoctypeRefused');
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new ServiceError('MalformedBody', `Malformed XML: ${valid.err.msg} (line ${valid.err.line})`);
  }
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(text) as Record<string, unknown>;
  } catch (e) {
    if ((e as Error).message === NESTING_EXCEEDED) throw new ServiceError('XmlTooDeep', `XML nested deeper than ${MAX_XML_DEPTH} levels`);
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
