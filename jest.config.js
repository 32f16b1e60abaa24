// ESM Jest (NestJS 12 is ESM-only): ts-jest transpiles, `tsc --noEmit` type-checks separately.
const libs = ['contracts', 'spec', 'embeddings', 'database', 'config', 'http'];

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
  },
  testTimeout: 60000,
};
