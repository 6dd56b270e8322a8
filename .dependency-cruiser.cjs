/**
 * The dependency rule (docs/architecture.md): main -> http -> modules -> connectors, outbox -> contract -> platform.
 * A layer may import its own and the layers below it, never one above; no cycles anywhere.
 */
const LAYERS = {
  main: '^src/main/',
  http: '^src/http/',
  modules: '^src/modules/',
  adapters: '^src/(connectors|outbox)/',
  contract: '^src/contract/',
  platform: '^src/platform/',
};
const ORDER = ['main', 'http', 'modules', 'adapters', 'contract', 'platform'];

const upward = ORDER.flatMap((layer, i) => ORDER.slice(0, i).map((above) => ({
  name: `${layer}-not-to-${above}`,
  comment: `${layer} may not import ${above}, a layer above it`,
  severity: 'error',
  from: { path: LAYERS[layer], ...(layer === 'platform' ? { pathNot: '^src/platform/db/schema\\.ts$' } : {}) },
  to: { path: LAYERS[above] },
})));

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    ...upward,
    // The contract (schemas, their types, the XML codec, the error catalogue) stands alone: clients and the browser
    // apps build on it without the server's platform.
    {
      name: 'contract-stands-alone',
      comment: 'the contract imports nothing else of Ledgerlink',
      severity: 'error',
      from: { path: LAYERS.contract },
      to: { path: '^src/', pathNot: LAYERS.contract },
    },
    // The one declared exception: the database's table list names each module's and the outbox's table types (types
    // only, no code).
    {
      name: 'db-schema-types-only',
      severity: 'error',
      from: { path: '^src/platform/db/schema\\.ts$' },
      to: { path: `${LAYERS.modules}|${LAYERS.adapters}`, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
