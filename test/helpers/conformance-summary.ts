import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Counts of the conformance check (conformance.ts), per test file, merged per dialect at the end of a run. */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARTIFACTS = path.join(ROOT, 'test-artifacts');

export interface StatusCounts {
  json: number;
  xml: number;
  text: number;
  empty: number;
  /** Responses with differences the allow-list covers. */
  allowed: number;
  drifts: number;
}

export interface DriftRecord {
  operation: string;
  method: string;
  path: string;
  status: string;
  format: string;
  pointer: string;
  keyword: string;
  message: string;
  count: number;
}

export interface ConformanceTally {
  /** Responses to requests for a reference operation. */
  inScope: number;
  /** Responses to requests for no reference operation (Ledgerlink extensions, Connect pages, sandbox, ...). */
  outOfScope: number;
  /** operationId, then status: responses validated. */
  checked: Record<string, Record<string, StatusCounts>>;
  /** operationId, then status: responses with a status (not an error) the reference does not describe for the operation. */
  unchecked: Record<string, Record<string, number>>;
  /** Allow-list entry (index in the file), then the responses it excused. */
  allowListHits: Record<string, number>;
  drifts: DriftRecord[];
}

export function emptyTally(): ConformanceTally {
  return { inScope: 0, outOfScope: 0, checked: {}, unchecked: {}, allowListHits: {}, drifts: [] };
}

/** Per-file counts of one run (several runs may share a working tree at once: each has its own directory). */
export function partialDir(dialect: string, run: string): string {
  return path.join(ARTIFACTS, 'conformance', `${dialect}-${run}`);
}

export function summaryFile(dialect: string): string {
  return path.join(ARTIFACTS, `conformance-summary-${dialect}.json`);
}

export function writePartial(dir: string, testFile: string, tally: ConformanceTally): void {
  fs.mkdirSync(dir, { recursive: true });
  const name = `${path.relative(ROOT, testFile).replace(/[^A-Za-z0-9.-]+/g, '_')}-${process.pid}.json`;
  fs.writeFileSync(path.join(dir, name), JSON.stringify({ file: path.relative(ROOT, testFile), ...tally }));
}

function add(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

export interface ConformanceSummary {
  dialect: string;
  mode: string;
  reference: string;
  allowList: string;
  files: string[];
  responsesInScope: number;
  responsesOutOfScope: number;
  operationsInReference: number;
  /** Operations with at least one validated response, and (operation, status) pairs validated. */
  operationsChecked: number;
  operationStatusesChecked: number;
  /** Of those, pairs the reference lists; the rest are error statuses checked against its common error body. */
  referenceStatusesChecked: number;
  referenceStatuses: number;
  /** Statuses the reference lists that no test received, per operation. */
  referenceStatusesNotSeen: Record<string, string[]>;
  responsesChecked: { json: number; xml: number; text: number; empty: number; allowed: number; drifts: number };
  operationsNotSeen: string[];
  checked: Record<string, Record<string, StatusCounts>>;
  statusesNotInReference: Record<string, Record<string, number>>;
  allowListEntries: Array<{ index: number; operation: string | string[]; status: string; pointer: string; reason: string; responses: number }>;
  drifts: DriftRecord[];
}

/** Merges the per-file counts of a run into test-artifacts/conformance-summary-<dialect>.json. */
export function mergePartials(dir: string, dialect: string, referenceFile: string, allowListFile: string, mode: string): ConformanceSummary | undefined {
  if (!fs.existsSync(dir)) return undefined;
  const parts = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as ConformanceTally & { file: string });
  fs.rmSync(dir, { recursive: true, force: true });
  if (fs.readdirSync(path.dirname(dir)).length === 0) fs.rmdirSync(path.dirname(dir));
  if (parts.length === 0) return undefined;
  const total = emptyTally();
  for (const p of parts) {
    total.inScope += p.inScope;
    total.outOfScope += p.outOfScope;
    for (const [op, statuses] of Object.entries(p.checked)) {
      for (const [status, c] of Object.entries(statuses)) {
        const into = ((total.checked[op] ??= {})[status] ??= { json: 0, xml: 0, text: 0, empty: 0, allowed: 0, drifts: 0 });
        add(into as unknown as Record<string, number>, c as unknown as Record<string, number>);
      }
    }
    for (const [op, statuses] of Object.entries(p.unchecked)) add((total.unchecked[op] ??= {}), statuses);
    add(total.allowListHits, p.allowListHits);
    for (const d of p.drifts) {
      const same = total.drifts.find(
        (x) => x.operation === d.operation && x.status === d.status && x.format === d.format && x.pointer === d.pointer && x.keyword === d.keyword,
      );
      if (same) same.count += d.count;
      else total.drifts.push({ ...d });
    }
  }
  const reference = fs.existsSync(referenceFile) ? JSON.parse(fs.readFileSync(referenceFile, 'utf8')) : { paths: {} };
  const listed = new Map<string, string[]>(
    Object.values(reference.paths as Record<string, Record<string, { operationId?: string; responses?: object }>>).flatMap((item) =>
      Object.entries(item)
        .filter(([m]) => ['get', 'post', 'put', 'delete', 'patch'].includes(m))
        .map(([, op]) => [op.operationId!, Object.keys(op.responses ?? {})] as [string, string[]]),
    ),
  );
  const referenceOps = [...listed.keys()].sort();
  const notSeen: Record<string, string[]> = {};
  for (const op of referenceOps) {
    const missing = listed.get(op)!.filter((status) => !total.checked[op]?.[status]);
    if (missing.length > 0) notSeen[op] = missing;
  }
  const allowList = fs.existsSync(allowListFile) ? JSON.parse(fs.readFileSync(allowListFile, 'utf8')) : { differences: [] };
  const responses = { json: 0, xml: 0, text: 0, empty: 0, allowed: 0, drifts: 0 };
  for (const statuses of Object.values(total.checked)) for (const c of Object.values(statuses)) add(responses, c as unknown as Record<string, number>);
  const summary: ConformanceSummary = {
    dialect,
    mode,
    reference: path.relative(ROOT, referenceFile),
    allowList: path.relative(ROOT, allowListFile),
    files: parts.map((p) => p.file).sort(),
    responsesInScope: total.inScope,
    responsesOutOfScope: total.outOfScope,
    operationsInReference: referenceOps.length,
    operationsChecked: Object.keys(total.checked).length,
    operationStatusesChecked: Object.values(total.checked).reduce((n, s) => n + Object.keys(s).length, 0),
    referenceStatusesChecked: referenceOps.reduce((n, op) => n + listed.get(op)!.filter((s) => total.checked[op]?.[s]).length, 0),
    referenceStatuses: referenceOps.reduce((n, op) => n + listed.get(op)!.length, 0),
    referenceStatusesNotSeen: notSeen,
    responsesChecked: responses,
    operationsNotSeen: referenceOps.filter((op) => !total.checked[op]),
    checked: Object.fromEntries(Object.entries(total.checked).sort(([a], [b]) => a.localeCompare(b))),
    statusesNotInReference: total.unchecked,
    allowListEntries: (allowList.differences as Array<{ operation: string | string[]; status: string; pointer: string; reason: string }>).map((e, index) => ({
      index,
      operation: e.operation,
      status: e.status,
      pointer: e.pointer,
      reason: e.reason,
      responses: total.allowListHits[String(index)] ?? 0,
    })),
    drifts: total.drifts.sort((a, b) => (a.operation + a.status + a.pointer).localeCompare(b.operation + b.status + b.pointer)),
  };
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(summaryFile(dialect), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
