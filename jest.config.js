// ESM Jest (NestJS 12 is ESM-only): ts-jest transpiles, `tsc --noEmit` type-checks separately.
const libs = ['contracts', 'api-specs', 'embeddings', 'database', 'config', 'http', 'dtos'];

// CommonJS packages that `require()` ESM-only ones: Node 20 allows that, Jest (before Node
// 24.9) does not, so those ESM packages are transpiled to CommonJS for the tests.
const esmRequiredFromCjs = ['@apidevtools/json-schema-ref-parser'];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  testMatch: ['<rootDir>/{apps,libs,test}/**/*.spec.ts'],
  moduleNameMapper: {
    ...Object.fromEntries(libs.map((lib) => [`^#${lib}$`, `<rootDir>/libs/${lib}/src/index.ts`])),
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
    [`/node_modules/(${esmRequiredFromCjs.join('|')})/.+\\.js$`]: [
      'ts-jest',
      { useESM: true, tsconfig: { allowJs: true, isolatedModules: true, module: 'nodenext', moduleResolution: 'nodenext' } },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmRequiredFromCjs.join('|')})/)`],
  // End-to-end tests wait on conditions with deadlines of their own (60 s for an API's indexing):
  // Jest's must be longer, so that a slow machine fails with what was awaited, not a time-out.
  testTimeout: 120_000,
  // One initdb for the run: the test stacks' in-memory databases start from its dump.
  globalSetup: '<rootDir>/test/support/pglite-seed.ts',
  globalTeardown: '<rootDir>/test/support/pglite-seed-teardown.ts',
  // Stops what a file started and left running, even a start whose hook timed out.
  setupFilesAfterEnv: ['<rootDir>/test/support/stop-leftovers.ts'],
  // An app that fails to start keeps what its other providers opened (its queue's Redis
  // connection), out of any test's reach: the run must still end after its summary.
  forceExit: true,
  // One file at a time (npm test: --maxWorkers=1), in a worker that is replaced once a file leaves
  // it holding more than this: in one process for the whole run, the heap grew past 5 GB and
  // garbage collection slowed every later file.
  workerIdleMemoryLimit: '1.5GB',
};
