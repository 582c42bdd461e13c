import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Files matching `files` may not import modules matching `forbidden`. */
function boundary(files, forbidden) {
  return {
    files,
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: forbidden, message: 'Dependencies point one way (docs/decisions/007-background-jobs-and-dependencies.md).' }] }],
    },
  };
}

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'test-results/**', 'playwright-report/**', 'data/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      // A closure may read a binding that is assigned once, after it is built.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  // Dependencies point one way (docs/decisions/007-background-jobs-and-dependencies.md): shared
  // imports no app, web never imports server code, the server no web code, and the simulator
  // speaks only the protocol (shared). No package imports a tool.
  boundary(['packages/shared/**'], ['**/apps/**', '**/tools/**', '@agua/server', '@agua/web', '@agua/simulator']),
  boundary(['apps/web/**'], ['**/apps/server/**', '@agua/server', '@agua/simulator']),
  boundary(['apps/server/**'], ['**/apps/web/**', '@agua/web']),
  // The server's code uses packages, never a tool (its tests may run one, like the import check).
  boundary(['apps/server/src/**'], ['**/apps/web/**', '@agua/web', '**/tools/**']),
  boundary(['packages/simulator/**'], ['**/apps/**', '**/tools/**', '@agua/server', '@agua/web']),
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // The service worker is a classic script in the worker's global scope.
  { files: ['apps/web/public/sw.js'], languageOptions: { globals: { ...globals.serviceworker }, sourceType: 'script' } },
);
