import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const dbWrite = {
  group: ['@michelscope/db/write', '@michelscope/db/write/*', '**/db/src/write', '**/db/src/write/*'],
  message: 'Only the indexer writes to the database: read through @michelscope/db/read.',
};
const kysely = {
  group: ['kysely', 'kysely/*'],
  message:
    'Only packages/db builds queries: add a read function to packages/db/src/read (or write, for the indexer).',
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-ssr/**',
      'data/**',
      'apps/server/bin/**',
      '**/*.mjs',
      '**/*.cjs',
      'eslint.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // Dependency rules (docs/ARCHITECTURE.md §2); import cycles are checked by scripts/check-cycles.mjs.
  {
    // Only the indexer writes to the database (tests may seed one through db/write), and only packages/db
    // builds queries (tests may read tables directly; the benchmarks build their own): one ESLint block per
    // set of files, since a later block's options for a rule replace an earlier one's.
    files: ['**/*.{ts,tsx}'],
    ignores: [
      'packages/indexer/src/**',
      'packages/db/src/**',
      '**/test/**',
      '**/*.test.{ts,tsx}',
      'bench/**',
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: [dbWrite, kysely] }] },
  },
  {
    files: ['packages/indexer/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [kysely] }] },
  },
  {
    files: ['bench/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [dbWrite] }] },
  },
  {
    // The web asks its servers through its API layer only (src/api: the resource registry and its client).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/api/**', 'apps/web/src/app/testing/**', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Ask through src/api: a resource of the registry (api/resources.ts).' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'fetch', message: 'Ask through src/api (api/resources.ts).' },
        { object: 'globalThis', property: 'fetch', message: 'Ask through src/api (api/resources.ts).' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'ImportDeclaration[source.value=/\\/api\\/client$/] ImportSpecifier[imported.name=/^(requestJson|getJson|openStream)$/]',
          message: 'Outside src/api, ask through a resource of the registry (api/resources.ts).',
        },
      ],
    },
  },
  {
    // The web app uses the API's shapes as types only, and no server-side package.
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@michelscope/api-types',
              allowTypeImports: true,
              message: 'The web imports @michelscope/api-types with `import type` only.',
            },
          ],
          patterns: [
            {
              group: ['@michelscope/api-types/*'],
              allowTypeImports: true,
              message: 'The web imports @michelscope/api-types with `import type` only.',
            },
            {
              group: [
                '@michelscope/db',
                '@michelscope/db/*',
                '@michelscope/api',
                '@michelscope/indexer',
                '@michelscope/sandbox',
                '@michelscope/interpreter',
              ],
              message: 'The web depends on api-types (types) and michelson only.',
            },
          ],
        },
      ],
    },
  },
);
