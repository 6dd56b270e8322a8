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

/**
 * What every table holds, by table name: a hash of its row count and its rows, in no particular order. Two
 * fingerprints differ for a table whose rows changed in any way (one added, removed or with any value changed).
 */
export type Fingerprint = Record<string, string>;

/**
 * The fingerprint of every table but `ignore` (and Kysely's own), taken in one statement: PostgreSQL hashes each
 * table's rows in their text form, sorted; SQLite writes each row as one line, sorts the lines and hands over one text
 * per table for this process to hash. A line holds each value with its type: text as its bytes in hex (`quote`
 * would stop at a NUL), anything else as the SQL literal `quote` writes, which keeps every digit.
 */
export async function databaseFingerprint(database: Database, ignore: readonly string[] = []): Promise<Fingerprint> {
  const kept = (name: string) => !name.startsWith('kysely_') && !ignore.includes(name);
  const fingerprint: Fingerprint = {};
  if (database.dialect === 'postgres') {
    // Only this database's schema: tests running alongside create and drop schemas of their own.
    const names = (
      await sql<{
        name: string;
      }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(database.kysely)
    ).rows
      .map((r) => r.name)
      .filter(kept);
    if (names.length === 0) return fingerprint;
    // The alias is the whole row; "C" makes the order the bytes', whatever the database's collation.
    const perTable = names.map(
      (name) =>
        sql`select ${name}::text as name, count(*)::text || ':' || coalesce(md5(string_agg(fingerprint_row::text, chr(10) order by fingerprint_row::text collate "C")), '') as hash from ${sql.table(name)} as fingerprint_row`,
    );
    const rows = (await sql<{ name: string; hash: string }>`${sql.join(perTable, sql` union all `)}`.execute(database.kysely)).rows;
    for (const row of rows) fingerprint[row.name] = row.hash;
    return fingerprint;
  }
  const columns = (
    await sql<{
      name: string;
      column: string;
    }>`select m.name as name, c.name as "column" from sqlite_master m, pragma_table_info(m.name) c where m.type = 'table' and m.name not like 'sqlite_%' order by m.name, c.cid`.execute(
      database.kysely,
    )
  ).rows.filter((r) => kept(r.name));
  const byTable = new Map<string, string[]>();
  for (const { name, column } of columns) byTable.set(name, [...(byTable.get(name) ?? []), column]);
  if (byTable.size === 0) return fingerprint;
  const perTable = [...byTable].map(([name, cols]) => {
    // Neither form holds a comma, so the comma keeps the values apart.
    const line = sql.join(
      cols.map((c) => sql`case typeof(${sql.ref(c)}) when 'text' then 'T' || hex(${sql.ref(c)}) else quote(${sql.ref(c)}) end`),
      sql` || ',' || `,
    );
    return sql`select ${name} as name, count(*) as n, string_agg(line, char(10) order by line) as content from (select ${line} as line from ${sql.table(name)})`;
  });
  const rows = (await sql<{ name: string; n: number; content: string | null }>`${sql.join(perTable, sql` union all `)}`.execute(database.kysely)).rows;
  for (const row of rows)
    fingerprint[row.name] = createHash('sha256')
      .update(`${row.n}\n${row.content ?? ''}`)
      .digest('hex');
  return fingerprint;
}

/** The tables whose content differs between two fingerprints (including a table only one of them has), sorted. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((t) => before[t] !== after[t]).sort();
}

export interface UnchangingWalk<T> {
  database: Database;
  /** Tables a walk may change (the request log). */
  ignore: readonly string[];
  items: readonly T[];
  /** How many items are walked between two fingerprints. */
  blockSize: number;
  /** The item as a failure names it (a route's method and url). */
  name: (item: T) => string;
  walk: (item: T) => Promise<void>;
}

/**
 * Walks the items in order and shows the database is as it was: one fingerprint per block of items rather than per
 * item, as a fingerprint reads every row. A block that changed it fails naming the tables that changed and the
 * block's items; its items are then walked again one at a time, with a fingerprint each, to name the one that did.
 */
export async function walkChangingNothing<T>(w: UnchangingWalk<T>): Promise<void> {
  let before = await databaseFingerprint(w.database, w.ignore);
  for (let start = 0; start < w.items.length; start += w.blockSize) {
    const block = w.items.slice(start, start + w.blockSize);
    for (const item of block) await w.walk(item);
    const after = await databaseFingerprint(w.database, w.ignore);
    const changed = changedTables(before, after);
    if (changed.length > 0) throw new Error(await blockChangeReport(w, block, changed, after));
    before = after;
  }
}

async function blockChangeReport<T>(w: UnchangingWalk<T>, block: readonly T[], changed: string[], after: Fingerprint): Promise<string> {
  const again: string[] = [];
  let previous = after;
  for (const item of block) {
    try {
      await w.walk(item);
    } catch (error) {
      again.push(`${w.name(item)} failed: ${String(error).slice(0, 300)}`);
    }
    const now = await databaseFingerprint(w.database, w.ignore);
    const by = changedTables(previous, now);
    if (by.length > 0) again.push(`${w.name(item)} changed ${by.join(', ')}`);
    previous = now;
  }
  return [
    `the database changed (tables: ${changed.join(', ')}) while walking:`,
    ...block.map((item) => `  ${w.name(item)}`),
    again.length > 0 ? `walked again one at a time: ${again.join('; ')}` : 'walked again one at a time, none of them changed it',
  ].join('\n');
}
