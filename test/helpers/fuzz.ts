import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Database } from '../../src/platform/db/database.js';

type Schema = Record<string, any>;

/** Strings an attacker or a broken client would send. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\t',
    '0',
    '-1',
    '1e309',
    'NaN',
    'Infinity',
    'null',
    'undefined',
    'true',
    '[]',
    '{}',
    "' OR '1'='1",
    '1; DROP TABLE customers; --',
    '../../../etc/passwd',
    '%00',
    '\u0000',
    '%2e%2e%2f',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, meant literally
    '${jndi:ldap://x}',
    '<script>alert(1)</script>',
    '\u202Eevil',
    '💸💸💸',
    'Ａ'.repeat(64),
    '9'.repeat(400),
    'x'.repeat(5000),
    '__proto__',
    'constructor',
    '1.5',
    '0x10',
    '-0',
    '99999999999999999999999999',
  ),
);

/** A JSON value of any shape, including deep and odd ones. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, [], {}, 0, -1, 1.5, true, '', { __proto__: { admin: true } }),
  hostileString,
);

function typesOf(s: Schema | undefined): string[] {
  if (!s) return [];
  if (Array.isArray(s.type)) return s.type;
  if (typeof s.type === 'string') return [s.type];
  return (s.anyOf ?? s.oneOf ?? []).flatMap(typesOf);
}

/** A value that is certainly not acceptable for this schema (wrong JSON type, or out of its bounds). */
function wrongValueFor(s: Schema): fc.Arbitrary<unknown> {
  const t = typesOf(s);
  const options: fc.Arbitrary<unknown>[] = [];
  if (!t.includes('object')) options.push(fc.constant({ nested: { deep: [1, 2, 3] } }));
  if (!t.includes('array')) options.push(fc.constant([[1], { a: 1 }]));
  // A lone value where an array goes is the one-item array XML sends, taken as that by design (coerceTypes 'array').
  if (!t.includes('string') && !t.includes('integer') && !t.includes('number') && !t.includes('boolean') && !t.includes('array'))
    options.push(hostileString.filter((x) => x !== ''));
  if ((t.includes('integer') || t.includes('number')) && !t.includes('string')) options.push(fc.constantFrom('abc', 'twelve', '1e', '--1'));
  if (t.includes('string') && typeof s.maxLength === 'number') options.push(fc.constant('x'.repeat(s.maxLength + 1)));
  if (t.includes('string') && typeof s.minLength === 'number' && s.minLength > 1) options.push(fc.constant('x'.repeat(s.minLength - 1)));
  if (options.length === 0) options.push(fc.constant({ not: 'this' }));
  return fc.oneof(...options);
}

/** A JSON body that breaks the body schema: a wrong top-level type, a missing required field, or a field of the wrong type. */
export function invalidBody(schema: Schema): fc.Arbitrary<unknown> {
  const required: string[] = schema.required ?? [];
  const props: Record<string, Schema> = schema.properties ?? {};
  const names = Object.keys(props);
  const options: fc.Arbitrary<unknown>[] = [fc.constantFrom([], [1, 2], 'text', 42, true)];
  if (required.length > 0) {
    // Everything but one required field (the others with hostile values).
    options.push(
      fc.tuple(fc.constantFrom(...required), fc.dictionary(fc.constantFrom(...names), anyJson)).map(([drop, extra]) => {
        const body: Record<string, unknown> = { ...extra };
        delete body[drop];
        return body;
      }),
    );
  }
  const typed = names.filter((n) => typesOf(props[n]).length > 0);
  if (typed.length > 0) {
    options.push(
      fc.constantFrom(...typed).chain((name) =>
        wrongValueFor(props[name]!).map((bad) => {
          const body: Record<string, unknown> = {};
          for (const n of required) body[n] = n === name ? bad : 'x';
          body[name] = bad;
          return body;
        }),
      ),
    );
  }
  return fc.oneof(...options);
}

/** Hostile XML documents. */
export const hostileXml: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><r>&b;</r>',
    '<!DOCTYPE r SYSTEM "file:///etc/passwd"><r/>',
    '<r>' + '<a>'.repeat(5000) + '</a>'.repeat(5000) + '</r>',
    '<r><unclosed></r>',
    '<r>&unknown;</r>',
    '<r attr="x" attr="y"/>',
    '<?xml version="1.0" encoding="UTF-7"?><r/>',
    '<r><![CDATA[' + ']]>'.repeat(3) + '</r>',
    '<a/><b/>',
    'not xml',
  ),
  fc.string({ maxLength: 200 }).map((s) => `<r>${s}</r>`),
);

/** A query string that breaks the querystring schema: wrong types, out-of-range numbers, duplicates. */
export function hostileQuery(schema: Schema | undefined): fc.Arbitrary<string> {
  const props: Record<string, Schema> = schema?.properties ?? {};
  const names = Object.keys(props);
  const key = names.length > 0 ? fc.oneof(fc.constantFrom(...names), hostileString) : hostileString;
  const pair = fc
    .tuple(key, fc.oneof(hostileString, fc.constantFrom('-5', '0', '1001', '99999999999', 'abc')))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  const duplicate = names.length > 0 ? fc.constantFrom(...names).map((n) => `${n}=1&${n}=2`) : fc.constant('a=1&a=2');
  return fc.array(fc.oneof(pair, duplicate), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('&'));
}

/** A fingerprint of every table's content, to show a request changed nothing. */
export async function databaseFingerprint(database: Database, ignore: readonly string[] = []): Promise<string> {
  // On PostgreSQL, Kysely's introspection reads every schema's tables, and tests running alongside create and drop
  // their own schemas (which can even make it fail): list only this database's schema.
  const names =
    database.dialect === 'postgres'
      ? (
          await sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(
            database.kysely,
          )
        ).rows.map((r) => r.name)
      : (await database.kysely.introspection.getTables()).map((t) => t.name);
  const tables = names.filter((n) => !n.startsWith('kysely_') && !ignore.includes(n)).sort();
  const hash = createHash('sha256');
  for (const table of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database.kysely);
    const lines = rows.rows.map((r) => JSON.stringify(r)).sort();
    hash.update(`${table}:${lines.length}\n${lines.join('\n')}\n`);
  }
  return hash.digest('hex');
}
