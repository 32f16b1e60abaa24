// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Lint (`npm run lint`, run by CI): ESLint's and typescript-eslint's recommended rules, plus the
 * type-aware rules that catch a promise nobody waits for or a promise where a value is expected.
 * Formatting is Prettier's job (`.prettierrc.json`), not ESLint's.
 */
export default tseslint.config(
  // TypeScript only: the few plain scripts (build-if-stale, configs) are not type-checked.
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  eslint.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // `_name` says "left out on purpose" (a rest sibling, a callback's unused argument).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Input checks name control characters on purpose, to refuse them.
      'no-control-regex': 'off',
      // Nest, TypeORM and class-validator type a class as `Function`; the code that reads their metadata follows them.
      '@typescript-eslint/no-unsafe-function-type': 'off',
    },
  },
);
