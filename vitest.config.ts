import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { schemaPoolRun } from './test/helpers/schema-pool-global.js';

// Integration tests check every answer to a reference operation against the reference description, and write
// test-artifacts/conformance-summary-<dialect>.json at the end (docs/compatibility.md, "Conformance check").
const conformance = { setupFiles: ['test/helpers/property-seed.ts', 'test/helpers/conformance-setup.ts'], globalSetup: ['test/helpers/conformance-global.ts'] };
// The PostgreSQL integration projects empty a test's schema and use it again in the next test of the process,
// instead of creating and migrating one per test (test/helpers/schema-pool.ts); their schemas are named after the run.
const SCHEMA_POOL_RUN = schemaPoolRun();
const postgresIntegration = {
  env: { LEDGERLINK_TEST_DIALECT: 'postgres', LEDGERLINK_TEST_SCHEMA_POOL: SCHEMA_POOL_RUN },
  ...conformance,
  globalSetup: [...conformance.globalSetup, 'test/helpers/schema-pool-global.ts'],
};

// Property and fuzz tests: a fixed seed under CI, a fresh one otherwise, printed so a failure can be repeated with
// LEDGERLINK_TEST_SEED=<seed>. Test processes inherit it from here (test/helpers/property-seed.ts applies it).
const CI_SEED = 20261125;
if (!process.env.LEDGERLINK_TEST_SEED) {
  process.env.LEDGERLINK_TEST_SEED = String(process.env.CI === 'true' ? CI_SEED : Math.floor(Math.random() * 2 ** 31));
}
if (!process.env.LEDGERLINK_TEST_SEED_SHOWN) {
  // The config is read once per project; say it once.
  process.env.LEDGERLINK_TEST_SEED_SHOWN = '1';
  console.log(`property tests: seed ${process.env.LEDGERLINK_TEST_SEED} (repeat with LEDGERLINK_TEST_SEED=${process.env.LEDGERLINK_TEST_SEED})`);
}

// Tests that compare two timings taken in one run (the cost of hostile input as a ratio, the only timing a test may
// assert: docs/architecture.md, Tests) run first and alone, so that no other test's load lands on one side of a ratio:
// each of their projects in a group of its own, because projects of one group run at the same time (a PostgreSQL
// ratio once failed while the SQLite lock-out bursts ran beside it). The lock-out bursts run alone too: the heaviest
// load of the suite, hundreds of sign-ins at once, each waiting at most the service's few seconds for a slot.
const TIMING = [
  'test/unit/xml-cost.test.ts',
  'test/unit/ofx-cost.test.ts',
  'test/unit/categorize-cost.test.ts',
  'test/unit/statement-camt-cost.test.ts',
  'test/unit/statement-mt940-cost.test.ts',
  'test/unit/json-depth.test.ts',
  'test/unit/statement-csv.test.ts',
  'test/unit/statement-values.test.ts',
  'test/unit/statement-qif-cost.test.ts',
  'test/unit/rules-pattern-cost.test.ts',
  'test/unit/enrichment-cost.test.ts',
  'test/unit/statement-pdf-cost.test.ts',
  'test/unit/pay-statement-cost.test.ts',
];
const TIMING_INTEGRATION = [
  'test/integration/xml-cost.test.ts',
  'test/integration/lockout-bursts.test.ts',
  'test/integration/data-version-cost.test.ts',
  'test/integration/sqlite-connection-cost.test.ts',
  'test/integration/upload-cost.test.ts',
];
// Integration files whose checks do not depend on the database (the transport rules, what reaches the server log):
// in the SQLite project only.
const STORE_NEUTRAL_INTEGRATION = ['test/integration/transport.test.ts', 'test/integration/log-redaction.test.ts'];
// Integration files share their process's modules with the files run before them there (`isolate: false`): each
// file importing the whole service again cost more than a third of the integration projects' time
// (docs/benchmarks.md, "The suite's time"). Files that replace or watch a module's functions (vi.mock, vi.spyOn), and
// those that ask the query planner for its plan (explainPlan: a PostgreSQL schema another file used and emptied keeps
// that file's statistics), get a process of their own, in projects of their own.
const needsIsolation = (dir: string, timing: readonly string[]) =>
  fs
    .readdirSync(dir)
    .filter(
      (name) => name.endsWith('.test.ts') && /\bvi\.(mock|doMock|spyOn|stubGlobal|stubEnv)\(|\bexplainPlan\(/.test(fs.readFileSync(`${dir}/${name}`, 'utf8')),
    )
    .map((name) => `${dir}/${name}`)
    .filter((file) => !timing.includes(file));
const ISOLATED_INTEGRATION = needsIsolation('test/integration', TIMING_INTEGRATION);
// The unit files the same way.
const ISOLATED_UNIT = needsIsolation('test/unit', TIMING);
// The system and browser files share their worker's modules the same way: their processes and browsers are their
// own, and what they import (the helpers, the in-process service of the browser files) is what the integration files
// share. None of them may replace a module's functions; such a file would need a project of its own.
const MOCKING_SYSTEM_OR_BROWSER = [...needsIsolation('test/system', []), ...needsIsolation('test/browser', [])];
if (MOCKING_SYSTEM_OR_BROWSER.length > 0) throw new Error(`give these files a project of their own: ${MOCKING_SYSTEM_OR_BROWSER.join(', ')}`);
// Projects that run the build (processes from dist/, the browser apps from dist/web) build it first when stale.
const BUILD_SETUP = 'test/helpers/build-setup.ts';
// System tests whose processes run on SQLite and on PostgreSQL: those with describe.each(SYSTEM_DIALECTS).
const SYSTEM_BOTH_STORES = fs
  .readdirSync('test/system')
  .filter((name) => name.endsWith('.test.ts') && fs.readFileSync(`test/system/${name}`, 'utf8').includes('describe.each(SYSTEM_DIALECTS)'))
  .map((name) => `test/system/${name}`);

// Most tests wait on child processes, sockets and the database more than they compute, so three files run at once
// on two cores (vitest's default there is one; docs/benchmarks.md, "The test suite's time"). Groups run in order: the
// three timing projects one after another, then the rest. The PostgreSQL restart of test/system/faults.test.ts is of a
// cluster of its own, so it runs with the rest.
const PARALLEL = { maxWorkers: 3, sequence: { groupOrder: 4 } };
const ALONE = (groupOrder: number) => ({ maxWorkers: 1, fileParallelism: false, sequence: { groupOrder } });

// The parallel group's projects in the order they start: those whose files run longest first (real processes, the
// browser), the short unit files last, so that the group ends with short files on every worker rather than one long
// file alone (vitest orders projects by name, which left a system file running alone at the end). Within a project,
// vitest's own order (the files that took longest last time, or the largest, first).
const PROJECT_ORDER = ['system-sqlite', 'browser', 'system-postgres', 'postgres', 'postgres-isolated', 'sqlite', 'sqlite-isolated', 'client'];
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = PROJECT_ORDER.indexOf(spec.project.name);
      return at < 0 ? PROJECT_ORDER.length : at;
    };
    // The sort is stable: files of one project keep vitest's order.
    return (await super.sort(files)).sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b));
  }
}

// Integration tests run once per database dialect; the rest once.
export default defineConfig({
  // The client package is tested from its source, as the example imports it by its package name.
  resolve: { alias: { '@ledgerlink/client': fileURLToPath(new URL('./packages/client/src/index.ts', import.meta.url)) } },
  test: {
    // A timeout catches a hang; on a loaded 2-core machine a heavy test takes several times its quiet duration.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    setupFiles: ['test/helpers/property-seed.ts'],
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'timing', include: TIMING, ...ALONE(1) } },
      {
        extends: true,
        test: { name: 'timing-sqlite', include: TIMING_INTEGRATION, env: { LEDGERLINK_TEST_DIALECT: 'sqlite' }, ...conformance, ...ALONE(2) },
      },
      {
        extends: true,
        test: { name: 'timing-postgres', include: TIMING_INTEGRATION, ...postgresIntegration, ...ALONE(3) },
      },
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: [...TIMING, ...ISOLATED_UNIT], isolate: false, ...PARALLEL } },
      { extends: true, test: { name: 'unit-isolated', include: ISOLATED_UNIT, ...PARALLEL } },
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...TIMING_INTEGRATION, ...ISOLATED_INTEGRATION],
          env: { LEDGERLINK_TEST_DIALECT: 'sqlite' },
          isolate: false,
          ...conformance,
          ...PARALLEL,
        },
      },
      {
        extends: true,
        test: { name: 'sqlite-isolated', include: ISOLATED_INTEGRATION, env: { LEDGERLINK_TEST_DIALECT: 'sqlite' }, ...conformance, ...PARALLEL },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...TIMING_INTEGRATION, ...STORE_NEUTRAL_INTEGRATION, ...ISOLATED_INTEGRATION],
          isolate: false,
          ...postgresIntegration,
          ...PARALLEL,
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres-isolated',
          include: ISOLATED_INTEGRATION.filter((file) => !STORE_NEUTRAL_INTEGRATION.includes(file)),
          ...postgresIntegration,
          ...PARALLEL,
        },
      },
      // The client's own tests, and its example app against real servers (an in-process one, and `ledgerlink serve`).
      {
        extends: true,
        test: { name: 'client', include: ['packages/client/test/**/*.test.ts'], globalSetup: [BUILD_SETUP], testTimeout: 90_000, ...PARALLEL },
      },
      // Real processes, started from the build (built first when stale): on a loaded machine each start can take
      // seconds, so allow more time.
      // The files that run their processes on both stores (SYSTEM_DIALECTS) are in both projects, each run a file of its
      // own; the rest run once, in system-sqlite.
      {
        extends: true,
        test: {
          name: 'system-sqlite',
          include: ['test/system/**/*.test.ts'],
          env: { LEDGERLINK_TEST_DIALECT: 'sqlite' },
          globalSetup: [BUILD_SETUP],
          testTimeout: 90_000,
          isolate: false,
          ...PARALLEL,
        },
      },
      {
        extends: true,
        test: {
          name: 'system-postgres',
          include: SYSTEM_BOTH_STORES,
          env: { LEDGERLINK_TEST_DIALECT: 'postgres' },
          globalSetup: [BUILD_SETUP],
          testTimeout: 90_000,
          isolate: false,
          ...PARALLEL,
        },
      },
      // Headless Chromium against the built Connect app and dashboard.
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: [BUILD_SETUP],
          testTimeout: 90_000,
          isolate: false,
          ...PARALLEL,
        },
      },
    ],
  },
});
