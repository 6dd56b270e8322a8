import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import Type from 'typebox';
import { parseXmlDocument, shapeBySchema } from '../../src/contract/xml/parse.js';
import { escapeXml, recordBranch, xmlWriter } from '../../src/contract/xml/serialize.js';
import { branchFor, elementName, typesOf, type XmlSchema } from '../../src/contract/xml/schema-walk.js';
import * as accounts from '../../src/contract/schemas/accounts.js';
import * as common from '../../src/contract/schemas/common.js';
import * as connect from '../../src/contract/schemas/connect.js';
import * as customers from '../../src/contract/schemas/customers.js';
import * as error from '../../src/contract/schemas/error.js';
import * as institutions from '../../src/contract/schemas/institutions.js';
import * as sandbox from '../../src/contract/schemas/sandbox.js';
import * as statements from '../../src/contract/schemas/statements.js';
import * as transactions from '../../src/contract/schemas/transactions.js';
import * as txpush from '../../src/contract/schemas/txpush.js';

const Institution = Type.Object({ id: Type.Integer(), name: Type.String(), oauthEnabled: Type.Boolean(), note: Type.Union([Type.String(), Type.Null()]) });
const Page = Type.Object({ found: Type.Integer(), moreAvailable: Type.Boolean(), institutions: Type.Array(Institution) }, { xml: { name: 'root' } });
const Event = Type.Object(
  {
    class: Type.String(),
    records: Type.Array(Type.Object({ id: Type.Integer() }, { xml: { name: 'account' } }), { xml: { wrapped: true } }),
  },
  { xml: { name: 'event' } },
);
const s = (x: unknown) => x as XmlSchema;

describe('XML from schemas', () => {
  it('renders unwrapped arrays as repeated elements under the schema root', () => {
    const out = xmlWriter(s(Page))({
      found: 2,
      moreAvailable: false,
      institutions: [
        { id: 1, name: 'A & B <bank>', oauthEnabled: true, note: null },
        { id: 2, name: 'C', oauthEnabled: false, note: 'x' },
      ],
    });
    expect(out).toBe(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><root><found>2</found><moreAvailable>false</moreAvailable>' +
        '<institutions><id>1</id><name>A &amp; B &lt;bank&gt;</name><oauthEnabled>true</oauthEnabled><note/></institutions>' +
        '<institutions><id>2</id><name>C</name><oauthEnabled>false</oauthEnabled><note>x</note></institutions></root>',
    );
  });

  it('renders wrapped arrays with item names from items.xml.name', () => {
    expect(xmlWriter(s(Event))({ class: 'account', records: [{ id: 1 }, { id: 2 }] })).toContain(
      '<event><class>account</class><records><account><id>1</id></account><account><id>2</id></account></records></event>',
    );
  });

  it('renders only the fields the schema names, in schema order', () => {
    expect(xmlWriter(s(Institution), 'institution')({ name: 'n', secret: 's', id: 3, oauthEnabled: true })).toContain(
      '<institution><id>3</id><name>n</name><oauthEnabled>true</oauthEnabled></institution>',
    );
  });

  it('drops characters XML cannot carry', () => {
    expect(xmlWriter(s(Institution))({ id: 1, name: 'a\u0000b\u0007c', oauthEnabled: true })).toContain('<name>abc</name>');
  });

  it('writes a value of a union of records as the record it is, told by required and fixed members', () => {
    // Steps that all require `step`, told apart by its value, as Connect's sign-in steps are.
    const Failed = Type.Object({ step: Type.Literal('failed'), code: Type.Integer() }, { xml: { name: 'failed' } });
    const Oauth = Type.Object({ step: Type.Literal('oauth'), url: Type.String() }, { xml: { name: 'oauth' } });
    const Upload = Type.Object({ accounts: Type.Array(Type.String()) }, { xml: { name: 'upload' } });
    const Preview = Type.Object({ preview: Type.Literal(true), accounts: Type.Array(Type.String()) }, { xml: { name: 'preview' } });
    const steps = [Failed, Oauth] as unknown as XmlSchema[];
    expect(recordBranch(steps, { step: 'oauth', url: 'https://bank.example/' })).toBe(Oauth);
    expect(recordBranch(steps, { step: 'failed', code: 103 })).toBe(Failed);
    expect(recordBranch([Preview, Upload] as unknown as XmlSchema[], { accounts: [] })).toBe(Upload);
    expect(recordBranch([Upload, Preview] as unknown as XmlSchema[], { preview: true, accounts: [] })).toBe(Upload);
    expect(xmlWriter(Type.Union([Failed, Oauth]) as unknown as XmlSchema)({ step: 'oauth', url: 'u' })).toMatch(
      /<oauth><step>oauth<\/step><url>u<\/url><\/oauth>$/,
    );
  });

  it('renders free-form objects key by key', () => {
    const schema = Type.Object({ data: Type.Record(Type.String(), Type.String()) });
    expect(xmlWriter(s(schema), 'x')({ data: { a: '1', 'bad key': '2' } })).toContain('<data><a>1</a><_bad_key>2</_bad_key></data>');
  });
});

describe('XML to values', () => {
  const Body = Type.Object({
    username: Type.String(),
    credentials: Type.Array(Type.Object({ id: Type.String(), value: Type.String() })),
    signature: Type.Array(Type.String()),
    limit: Type.Integer(),
  });

  it('wraps single elements into arrays where the schema wants arrays and drops empty non-strings', () => {
    const parsed = parseXmlDocument(
      '<customer><username>u&amp;1</username><credentials><id>1</id><value>v</value></credentials><signature>line</signature><limit></limit></customer>',
    );
    expect(shapeBySchema(parsed, s(Body))).toEqual({ username: 'u&1', credentials: [{ id: '1', value: 'v' }], signature: ['line'] });
  });

  it('keeps repeated elements as arrays', () => {
    const parsed = parseXmlDocument('<x><signature>a</signature><signature>b</signature></x>');
    expect(shapeBySchema(parsed, s(Body))).toEqual({ signature: ['a', 'b'] });
  });

  it('unwraps wrapped arrays', () => {
    const parsed = parseXmlDocument('<event><class>account</class><records><account><id>1</id></account><account><id>2</id></account></records></event>');
    expect(shapeBySchema(parsed, s(Event))).toEqual({ class: 'account', records: [{ id: '1' }, { id: '2' }] });
  });

  it('treats an empty root as an empty object', () => {
    expect(parseXmlDocument('<customer/>')).toEqual({});
  });

  it('does not count markup inside CDATA or comments towards depth', () => {
    const text = `<a><!-- ${'<b>'.repeat(100)} --><![CDATA[${'<c>'.repeat(100)}]]></a>`;
    expect(() => parseXmlDocument(text)).not.toThrow();
  });

  it.each(['<!DOCTYPE a><a/>', '<!doctype a><a/>', '<a><!ENTITY x "y"></a>'])('refuses %s', (text) => {
    expect(() => parseXmlDocument(text)).toThrow(/document type declarations/);
  });
});

describe('malformed XML bodies', () => {
  it.each([
    ['a broken declaration inside an element', '<r><!D</r>'],
    ['an unclosed CDATA section', '<r><![CDATA[</r>'],
    ['an unclosed processing instruction', '<r><?x</r>'],
    ['two roots', '<a>1</a><b>2</b>'],
  ])('are refused as MalformedBody (code 10040): %s', (_name, text) => {
    expect(() => parseXmlDocument(text)).toThrow(expect.objectContaining({ code: '10040' }));
  });
});

/** Texts with what XML must escape or drop, and plain ones. */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('', 'A & B <bank>', 'a\u0000b\u0007c', '\uFFFE', ']]>', '💸', 'x'.repeat(40), '\uD800', 'a\uDC00b'),
);
const anything: fc.Arbitrary<unknown> = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined), text);

/** Values shaped like `schema`, now and then of another shape or missing, as a bug elsewhere could hand over. */
function shapedValue(schema: XmlSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return anything;
  const branches = schema.anyOf ?? schema.oneOf;
  const shaped: fc.Arbitrary<unknown>[] = branches ? branches.map((b) => shapedValue(b, depth + 1)) : [];
  for (const type of typesOf(branches ? undefined : schema)) {
    if (type === 'string') shaped.push(text);
    if (type === 'integer') shaped.push(fc.integer());
    if (type === 'number') shaped.push(fc.oneof(fc.double(), fc.integer()));
    if (type === 'boolean') shaped.push(fc.boolean());
    if (type === 'null') shaped.push(fc.constant(null));
    if (type === 'array') shaped.push(fc.array(shapedValue(schema.items, depth + 1), { maxLength: 3 }));
    if (type === 'object') {
      const props = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, shapedValue(v, depth + 1)]));
      const extra = typeof schema.additionalProperties === 'object' ? shapedValue(schema.additionalProperties, depth + 1) : anything;
      shaped.push(
        fc
          .tuple(fc.record(props, { requiredKeys: [] }), fc.dictionary(fc.constantFrom('extra', 'bad key', '1x', 'id'), extra, { maxKeys: 2 }))
          .map(([known, more]) => ({ ...more, ...known })),
      );
    }
  }
  return shaped.length === 0 ? anything : fc.oneof({ weight: 9, arbitrary: fc.oneof(...shaped) }, { weight: 1, arbitrary: anything });
}

const contract = { accounts, common, connect, customers, error, institutions, sandbox, statements, transactions, txpush };
// Unions whose branches are an array and an object, and an object with named and free-form members, which the
// contract may not have today.
const Unions = Type.Object(
  {
    list: Type.Union([Type.Array(Institution, { xml: { wrapped: true } }), Type.Null()]),
    one: Type.Union([Institution, Type.String(), Type.Array(Type.Integer(), { xml: { name: 'n' } })]),
    free: Type.Record(Type.String(), Type.Integer()),
    open: Type.Object({ id: Type.Integer() }, { additionalProperties: Type.Union([Type.String(), Type.Array(Type.Integer())]) }),
  },
  { xml: { name: 'unions' } },
);
const schemas = [
  ...Object.entries(contract).flatMap(([module, exports]) =>
    Object.entries(exports)
      .filter(([, v]) => v !== null && typeof v === 'object' && ('type' in v || 'anyOf' in v) && !Array.isArray(v))
      .map(([name, v]) => [`${module}.${name}`, v as unknown as XmlSchema] as const),
  ),
  ['test.Unions', s(Unions)] as const,
  ['test.Event', s(Event)] as const,
];

/** A node as fast-xml-parser reads it in document order: an element (tag → its children) or a run of text. */
type Read = { [tag: string]: Read[] } | { '#text': string };

// An XML reader of its own, not Ledgerlink's: every element as it is, text untrimmed and unconverted. Tag names are
// prefixed while reading, since it refuses names such as `constructor` that XML allows (and prefixes an empty
// element's name twice).
const reader = new XMLParser({
  preserveOrder: true,
  transformTagName: (name) => `el:${name}`,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
});

function unprefixed(nodes: Read[]): Read[] {
  return nodes.map((node) => {
    if ('#text' in node) return { '#text': String(node['#text']) };
    const [tag, children] = Object.entries(node)[0]!;
    return { [tag.replace(/^(el:)+/, '')]: unprefixed(children as Read[]) };
  });
}

/** What a reader finds in a document rendered from `value` by the rules of docs/architecture.md (Schemas). */
function expectedDocument(value: unknown, schema: XmlSchema | undefined, rootName?: string): Read[] {
  const root = rootName ?? schema?.xml?.name ?? 'root';
  if (value !== null && typeof value === 'object' && !Array.isArray(value))
    return [{ [elementName(root)]: membersOf(value as Record<string, unknown>, schema) }];
  return elementsOf(root, value, schema);
}

/** A member: nothing when undefined, an empty element for null, repeated elements (or one wrapping them) for an array. */
function elementsOf(name: string, value: unknown, schema: XmlSchema | undefined): Read[] {
  if (value === undefined) return [];
  const tag = elementName(name);
  if (value === null) return [{ [tag]: [] }];
  const branch = schema ? branchFor(schema, value) : undefined;
  if (Array.isArray(value)) {
    const items = value.flatMap((item) => elementsOf(branch?.items?.xml?.name ?? name, item, branch?.items));
    return branch?.xml?.wrapped ? [{ [tag]: items }] : items;
  }
  if (typeof value === 'object') return [{ [tag]: membersOf(value as Record<string, unknown>, branch) }];
  return [{ [tag]: textOf(value) }];
}

/** An object's members: those the schema names, in its order, then what a free-form part holds, in the value's order. */
function membersOf(value: Record<string, unknown>, schema: XmlSchema | undefined): Read[] {
  const props = schema?.properties;
  const extra = typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  const freeForm = props ? extra !== undefined : !schema || extra !== undefined || typesOf(schema).length === 0 || schema.additionalProperties !== false;
  const named = Object.entries(props ?? {}).flatMap(([key, member]) => elementsOf(key, value[key], member));
  const free = freeForm ? Object.keys(value).filter((key) => !(props && key in props)) : [];
  return [...named, ...free.flatMap((key) => elementsOf(key, value[key], extra))];
}

/** Text as a reader gets it back: characters XML cannot carry dropped, line ends normalised (XML 1.0, 2.11). */
function textOf(value: unknown): Read[] {
  const text =
    typeof value === 'number'
      ? Number.isFinite(value)
        ? String(value)
        : ''
      : String(value)
          .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
          .replace(/\r\n?/g, '\n');
  return text === '' ? [] : [{ '#text': text }];
}

describe('XML writers compiled per schema', () => {
  it('cover the contract', () => {
    expect(schemas.length).toBeGreaterThan(40);
    expect(schemas.map(([n]) => n)).toContain('transactions.TransactionList');
  });

  it.each(schemas)('render documents an XML reader reads back as the value the schema shapes: %s', (_name, schema) => {
    const write = xmlWriter(schema);
    fc.assert(
      fc.property(shapedValue(schema), (value) => {
        const document = write(value);
        // No response is undefined or an array, which render no root element, or one per item.
        if (value !== undefined && !Array.isArray(value)) expect(XMLValidator.validate(document)).toBe(true);
        expect(unprefixed(reader.parse(document) as Read[])).toEqual(expectedDocument(value, schema));
      }),
      { numRuns: 60 },
    );
  });

  it('render under another root name, and without a schema', () => {
    const value = { id: 1, name: 'a<b', oauthEnabled: true, note: null };
    const fields = '<id>1</id><name>a&lt;b</name><oauthEnabled>true</oauthEnabled><note/>';
    const declaration = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
    expect(xmlWriter(s(Institution), 'institution')(value)).toBe(`${declaration}<institution>${fields}</institution>`);
    expect(xmlWriter(s(Institution))(value)).toBe(`${declaration}<root>${fields}</root>`);
    // An empty root name is a name of its own (`_`), not the schema's.
    expect(xmlWriter(s(Institution), '')(value)).toBe(`${declaration}<_>${fields}</_>`);
    expect(xmlWriter(undefined)({ b: 2, a: [1, 2] })).toBe(`${declaration}<root><b>2</b><a>1</a><a>2</a></root>`);
    expect(xmlWriter(undefined, 'n')(3)).toBe(`${declaration}<n>3</n>`);
  });

  it('are made once per schema and root name', () => {
    expect(xmlWriter(s(Institution))).toBe(xmlWriter(s(Institution)));
    expect(xmlWriter(s(Institution), 'institution')).not.toBe(xmlWriter(s(Institution)));
    expect(xmlWriter(undefined, 'x')).toBe(xmlWriter(undefined, 'x'));
  });

  it('escape only what needs escaping', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(escapeXml(t)).toBe(
          t.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!),
        );
      }),
    );
  });
});
