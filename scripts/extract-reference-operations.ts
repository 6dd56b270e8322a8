// Extracts the operation signatures (method, path, parameters, success statuses) from the reference
// description of the real-world service, for the compatibility test. Usage:
//   npx tsx scripts/extract-reference-operations.ts ../shared/reference/openapi-full.json
import fs from 'node:fs';

type Json = Record<string, any>;
const file = process.argv[2];
if (!file) throw new Error('usage: extract-reference-operations.ts <reference openapi json>');
const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
const resolve = (node: Json): Json => {
  if (!node?.$ref) return node;
  let x: any = doc;
  for (const part of String(node.$ref).split('/').slice(1)) x = x[part];
  return resolve(x);
};
const operations = [];
for (const [path, item] of Object.entries(doc.paths as Json)) {
  for (const [method, op] of Object.entries(item as Json)) {
    if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
    const parameters = ((op.parameters ?? []) as Json[])
      .map(resolve)
      .filter((p) => p.in === 'query' || p.in === 'path')
      .map((p) => ({ name: p.name, in: p.in, required: Boolean(p.required) }))
      .sort((a, b) => a.name.localeCompare(b.name));
    const success = Object.keys(op.responses ?? {})
      .filter((s) => s.startsWith('2'))
      .sort();
    operations.push({ operationId: op.operationId, method: method.toUpperCase(), path, parameters, success });
  }
}
operations.sort((a, b) => (a.path + a.method).localeCompare(b.path + b.method));
fs.writeFileSync(new URL('../test/fixtures/reference-operations.json', import.meta.url), JSON.stringify(operations, null, 2) + '\n');
process.stdout.write(`wrote ${operations.length} operations\n`);
