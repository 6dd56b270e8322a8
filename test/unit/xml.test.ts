import { describe, expect, it } from 'vitest';
import Type from 'typebox';
import { parseXmlDocument, shapeBySchema } from '../../src/contract/xml/parse.js';
import { toXml } from '../../src/contract/xml/serialize.js';
import type { XmlSchema } from '../../src/contract/xml/schema-walk.js';

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
    const out = toXml(
      {
        found: 2,
        moreAvailable: false,
        institutions: [
          { id: 1, name: 'A & B <bank>', oauthEnabled: true, note: null },
          { id: 2, name: 'C', oauthEnabled: false, note: 'x' },
        ],
      },
      s(Page),
    );
    expect(out).toBe(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><root><found>2</found><moreAvailable>false</moreAvailable>' +
        '<institutions><id>1</id><name>A &amp; B &lt;bank&gt;</name><oauthEnabled>true</oauthEnabled><note/></institutions>' +
        '<institutions><id>2</id><name>C</name><oauthEnabled>false</oauthEnabled><note>x</note></institutions></root>',
    );
  });

  it('renders wrapped arrays with item names from items.xml.name', () => {
    expect(toXml({ class: 'account', records: [{ id: 1 }, { id: 2 }] }, s(Event))).toContain(
      '<event><class>account</class><records><account><id>1</id></account><account><id>2</id></account></records></event>',
    );
  });

  it('renders only the fields the schema names, in schema order', () => {
    expect(toXml({ name: 'n', secret: 's', id: 3, oauthEnabled: true }, s(Institution), 'institution')).toContain(
      '<institution><id>3</id><name>n</name><oauthEnabled>true</oauthEnabled></institution>',
    );
  });

  it('drops characters XML cannot carry', () => {
    expect(toXml({ id: 1, name: 'a\u0000b\u0007c', oauthEnabled: true }, s(Institution))).toContain('<name>abc</name>');
  });

  it('renders free-form objects key by key', () => {
    const schema = Type.Object({ data: Type.Record(Type.String(), Type.String()) });
    expect(toXml({ data: { a: '1', 'bad key': '2' } }, s(schema), 'x')).toContain('<data><a>1</a><_bad_key>2</_bad_key></data>');
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
