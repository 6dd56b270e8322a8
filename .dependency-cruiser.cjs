/**
 * The dependency rule (docs/architecture.md): main -> http -> modules -> connectors -> outbox -> contract -> platform.
 * A layer may import its own and the layers below it, never one above; no cycles anywhere, between files or between
 * the folders of feature modules and of connectors.
 */
const LAYERS = {
  main: '^src/main/',
  http: '^src/http/',
  modules: '^src/modules/',
  connectors: '^src/connectors/',
  outbox: '^src/outbox/',
  contract: '^src/contract/',
  platform: '^src/platform/',
};
const ORDER = ['main', 'http', 'modules', 'connectors', 'outbox', 'contract', 'platform'];

const upward = ORDER.flatMap((layer, i) => ORDER.slice(0, i).map((above) => ({
  name: `${layer}-not-to-${above}`,
  comment: `${layer} may not import ${above}, a layer above it`,
  severity: 'error',
  from: { path: LAYERS[layer], ...(layer === 'platform' ? { pathNot: '^src/platform/db/schema\\.ts$' } : {}) },
  to: { path: LAYERS[above] },
})));

/**
 * The feature modules (src/modules/<name>/), each building on those after it: a module may import the ones after it
 * in this list, never one before it, so they depend one way. Why this order: docs/architecture.md, "Modules". A new
 * module takes its place here before anything imports it.
 */
const MODULES = ['sandbox', 'dashboard', 'connect', 'txpush', 'webhooks', 'simplefin', 'exports', 'reports', 'statements', 'consumers', 'enrichment', 'microentries', 'payments', 'apps', 'aggregation', 'rules', 'customers', 'institutions', 'partners', 'requestlog'];

const moduleOrder = MODULES.slice(1).map((module, i) => ({
  name: `module-${module}-not-up`,
  comment: `${module} may not import ${MODULES.slice(0, i + 1).join(', ')}: modules before it in the order`,
  severity: 'error',
  from: { path: `^src/modules/${module}/` },
  to: { path: `^src/modules/(${MODULES.slice(0, i + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    ...upward,
    ...moduleOrder,
    {
      name: 'module-in-order',
      comment: 'every feature module is listed in MODULES (.dependency-cruiser.cjs) before anything imports it',
      severity: 'error',
      from: { path: LAYERS.modules },
      to: { path: LAYERS.modules, pathNot: `^src/modules/(${MODULES.join('|')})/` },
    },
    // Connectors (src/connectors/<name>/) stand apart: each builds on the shared contract files beside them
    // (connector.ts and its helpers), the registry lists them all, and none imports another or the registry.
    {
      name: 'connectors-stand-apart',
      comment: 'a connector imports no other connector',
      severity: 'error',
      from: { path: '^src/connectors/([^/]+)/', pathNot: '^src/connectors/statements/' },
      to: { path: '^src/connectors/[^/]+/', pathNot: '^src/connectors/$1/' },
    },
    // The one exception: statement files in OFX are read with the OFX connector's parser and mapping.
    {
      name: 'statements-use-only-ofx',
      comment: 'the statement files connector imports no other connector but ofx',
      severity: 'error',
      from: { path: '^src/connectors/statements/' },
      to: { path: '^src/connectors/[^/]+/', pathNot: '^src/connectors/(statements|ofx)/' },
    },
    {
      name: 'connectors-not-to-registry',
      comment: 'the registry imports the connectors, never the other way',
      severity: 'error',
      from: { path: '^src/connectors/[^/]+/' },
      to: { path: '^src/connectors/registry\\.ts$' },
    },
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
      to: { path: `${LAYERS.modules}|${LAYERS.connectors}|${LAYERS.outbox}`, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
