// ESM Jest (NestJS 12 is ESM-only): ts-jest transpiles, `tsc --noEmit` type-checks separately.
const libs = ['contracts', 'spec', 'embeddings', 'database', 'config', 'http'];

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
  testTimeout: 60000,
};
