import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { mergePartials, partialDir } from './conformance-summary.js';
import { ALLOWLIST_FILE, REFERENCE_FILE, conformanceMode } from './conformance.js';

declare module 'vitest' {
  interface ProvidedContext {
    /** Where this run's test files leave their conformance counts (conformance-setup.ts). */
    conformanceDir: string;
  }
}

/**
 * Global setup of the integration projects: gives the run a directory for per-file conformance counts and, at
 * its end, merges them into test-artifacts/conformance-summary-<dialect>.json. Drift recorded anywhere (even
 * outside a test, where no test could fail for it) fails the run.
 */
export default function setup(project: TestProject): () => void {
  const dialect = project.name;
  const dir = partialDir(dialect, `${process.pid}-${randomBytes(3).toString('hex')}`);
  project.provide('conformanceDir', dir);
  return () => {
    const mode = conformanceMode();
    if (mode === 'off') return;
    const summary = mergePartials(dir, dialect, REFERENCE_FILE, ALLOWLIST_FILE, mode);
    if (!summary) return;
    const c = summary.responsesChecked;
    const line = `conformance (${dialect}): ${c.json + c.xml + c.text + c.empty} responses of ${summary.operationsChecked}/${summary.operationsInReference} reference operations validated (${summary.operationStatusesChecked} operation statuses, ${summary.referenceStatusesChecked} of the reference's ${summary.referenceStatuses}); ${summary.drifts.length} drift(s)`;
    process.stdout.write(`${line}\n`);
    if (summary.drifts.length > 0 && mode === 'fail') throw new Error(`${line}: see test-artifacts/conformance-summary-${dialect}.json`);
  };
}
