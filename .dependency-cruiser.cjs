/**
 * The dependency rule (docs/architecture.md): main -> http -> modules -> connectors, outbox -> contract -> platform.
 * A layer may import its own and the layers below it, never one above; no cycles anywhere.
 */
const LAYERS = {
  main: '^src/(config|runtime|app|server|openapi-document)\\.ts$|^src/cli/',
  http: '^src/http/(?!schemas/|xml/)',
  modules: '^src/domain/',
  adapters: '^src/(connectors|delivery)/',
  contract: '^src/(errors|http/schemas|http/xml)/',
  platform: '^src/(lib|db|types)/|^src/version\\.ts$',
};
const ORDER = ['main', 'http', 'modules', 'adapters', 'contract', 'platform'];

const upward = ORDER.flatMap((layer, i) => ORDER.slice(0, i).map((above) => ({
  name: `${layer}-not-to-${above}`,
  comment: `${layer} may not import ${above}, a layer above it`,
  severity: 'error',
  from: { path: LAYERS[layer], ...(layer === 'platform' ? { pathNot: '^src/db/schema\\.ts$' } : {}) },
  to: { path: LAYERS[above] },
})));

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    ...upward,
    // The one declared exception: the database's table list names each module's and the outbox's table types (types
    // only, no code).
    {
      name: 'db-schema-types-only',
      severity: 'error',
      from: { path: '^src/db/schema\\.ts$' },
      to: { path: `${LAYERS.modules}|${LAYERS.adapters}`, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
