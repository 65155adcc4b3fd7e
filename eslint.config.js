// Lint rules carry the layout decisions of STYLE.md: import direction between client/, server/
// and shared/, named exports, type-only imports and no unexplained `any`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { clientLayers } from './eslint-rules/client-layers.js';

const sharedMustStayPortable = {
  patterns: [
    { group: ['node:*'], message: 'shared/ runs in the browser too: no Node built-ins.' },
    { group: ['react', 'react-dom', 'react/*'], message: 'shared/ has no UI.' },
    { group: ['**/server/**', '**/client/**'], message: 'shared/ imports neither side.' },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'dist-server/**', 'data/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['shared/**/*.ts'],
    languageOptions: { globals: { ...globals['shared-node-browser'] } },
    rules: { 'no-restricted-imports': ['error', sharedMustStayPortable] },
  },
  {
    files: ['server/**/*.ts', 'scripts/**/*.{ts,mjs}', 'eslint-rules/**/*.js'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/client/**'], message: 'server/ never imports client/.' },
            { group: ['**/tests/**'], message: 'nothing outside tests/ imports tests/.' },
            {
              regex: 'features/[^/]+/(?!index(\\.js)?$)[^/]+$',
              message: 'A feature is used by others only through its index.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/features/**/*.ts'],
    rules: {
      // Inside a feature folder, relative imports of its own files are fine; other features
      // still go through their index.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/client/**'], message: 'server/ never imports client/.' },
            { group: ['**/tests/**'], message: 'nothing outside tests/ imports tests/.' },
            {
              regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!index(\\.js)?$)[^/]+$',
              message: 'Another feature is used only through its index.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'client/ runs in the browser.' },
            { group: ['**/server/**'], message: 'client/ never imports server/; share a schema.' },
            { group: ['**/tests/**'], message: 'nothing outside tests/ imports tests/.' },
          ],
        },
      ],
    },
  },
  {
    // Layers, one way down: app/ → features/* (each through its index.ts) → ui/ and lib/; no
    // circles (eslint-rules/client-layers.js, docs/architecture.md "Client layers").
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'client-layers': clientLayers },
    rules: { 'client-layers/boundaries': 'error' },
  },
  {
    files: ['client/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/features/**'], message: 'ui/ is presentational: it imports no feature.' },
            { group: ['**/server/**'], message: 'client/ never imports server/.' },
            { group: ['@tanstack/react-query'], message: 'ui/ does no data fetching.' },
          ],
        },
      ],
    },
  },
  {
    files: ['tests/**/*.{ts,tsx}', '*.config.{ts,js}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: { 'no-console': 'off' },
  },
);
