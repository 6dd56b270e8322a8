import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Integration tests check every answer to a reference operation against the reference description, and write
// test-artifacts/conformance-summary-<dialect>.json at the end (docs/compatibility.md, "Conformance check").
const conformance = { setupFiles: ['test/helpers/property-seed.ts', 'test/helpers/conformance-setup.ts'], globalSetup: ['test/helpers/conformance-global.ts'] };

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

// Integration tests run once per database dialect; the rest once.
export default defineConfig({
  // The client package is tested from its source, as the example imports it by its package name.
  resolve: { alias: { '@ledgerlink/client': fileURLToPath(new URL('./packages/client/src/index.ts', import.meta.url)) } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ['test/helpers/property-seed.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'sqlite', include: ['test/integration/**/*.test.ts'], env: { LEDGERLINK_TEST_DIALECT: 'sqlite' }, ...conformance } },
      { extends: true, test: { name: 'postgres', include: ['test/integration/**/*.test.ts'], env: { LEDGERLINK_TEST_DIALECT: 'postgres' }, ...conformance } },
      // The client's own tests, and its example app against real servers.
      { extends: true, test: { name: 'client', include: ['packages/client/test/**/*.test.ts'], testTimeout: 90_000 } },
      // Real processes: on a loaded machine each start can take seconds, so allow more time.
      { extends: true, test: { name: 'system', include: ['test/system/**/*.test.ts'], fileParallelism: false, testTimeout: 90_000 } },
      // Headless Chromium against the built Connect app: built once first, files one after another.
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          fileParallelism: false,
          globalSetup: ['test/browser/global-setup.ts'],
          testTimeout: 90_000,
        },
      },
    ],
  },
});
