/**
 * The layers of src/, top to bottom (docs/architecture.md draws them). A module may import from its own layer or
 * any layer below it, never from one above; no circles. `npm run lint` checks this.
 */
const LAYERS = [
  ['cli'],
  ['service\\.ts'],
  ['http', 'control'],
  ['mcp'],
  ['render'],
  ['use-cases'],
  ['demo'],
  ['context\\.ts'],
  ['importers', 'storage', 'query', 'i18n'],
  ['catalogue'],
  ['places', 'auth', 'config\\.ts', 'observability', 'runtime'],
];

const pathOf = (names) => `^src/(${names.join('|')})`;

const upward = LAYERS.slice(1).map((layer, i) => ({
  name: `no-import-up-from-${layer[0].replace('\\.ts', '')}`,
  comment: `${layer.join(', ')} may not import from a layer above it`,
  severity: 'error',
  from: { path: pathOf(layer) },
  to: { path: pathOf(LAYERS.slice(0, i + 1).flat()) },
}));

// Within one layer of several folders, the folders stay apart except where the drawing says they may meet.
const sideways = [
  ['http', ['control']],
  ['control', ['http']],
  ['importers', ['storage', 'query', 'i18n']],
  ['storage', ['importers', 'query', 'i18n']],
  ['i18n', ['importers', 'storage', 'query']],
  ['query', ['importers', 'storage', 'i18n']],
  ['places', ['auth', 'config\\.ts', 'observability', 'runtime']],
  ['runtime', ['places', 'auth', 'config\\.ts', 'observability']],
].map(([from, to]) => ({
  name: `no-import-sideways-from-${from}`,
  severity: 'error',
  from: { path: pathOf([from]) },
  to: { path: pathOf(to) },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    ...upward,
    ...sideways,
    {
      name: 'read-index-through-its-door',
      comment:
        'outside query/, the engine is reached through its door (read-index.ts), the query grammar (params.ts) and ' +
        'cursors (cursor.ts) only: the index, its shards and entries, ranking and prompt reading stay behind it',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/query/' },
      to: { path: '^src/query/', pathNot: '^src/query/(read-index|params|cursor)\\.ts$' },
    },
    {
      name: 'src-not-from-tests-or-tools',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
