/** The parts of a JSON Schema (TypeBox output plus the OpenAPI `xml` keyword) the XML mapping reads. */
export interface XmlSchema {
  type?: string | string[];
  properties?: Record<string, XmlSchema>;
  additionalProperties?: boolean | XmlSchema;
  patternProperties?: Record<string, XmlSchema>;
  items?: XmlSchema;
  anyOf?: XmlSchema[];
  oneOf?: XmlSchema[];
  xml?: { name?: string; wrapped?: boolean };
  [key: string]: unknown;
}

/** The schema's types as a list ('null' included when nullable). */
export function typesOf(schema: XmlSchema | undefined): string[] {
  if (!schema) return [];
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return branches.flatMap(typesOf);
  return [];
}

/** For a union (e.g. nullable), the branch that describes a non-null value of this JS kind. */
export function branchFor(schema: XmlSchema, value: unknown): XmlSchema {
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches) return schema;
  const kind = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value === 'object' ? 'object' : typeof value;
  const match = branches.find((b) => {
    const t = typesOf(b);
    if (kind === 'number') return t.includes('number') || t.includes('integer');
    return t.includes(kind);
  });
  return match ?? branches.find((b) => !typesOf(b).includes('null')) ?? schema;
}

/** Whether a name can be used as an XML element name as it is. */
const XML_NAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;
export function elementName(name: string): string {
  return XML_NAME.test(name) ? name : `_${name.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}
