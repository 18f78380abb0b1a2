// Lint rules, including the import directions of ARCHITECTURE.md as restricted-import zones:
// shared <- client/db <- client/sync <- client/features <- client/app; ui and lib are leaves;
// a feature never imports another feature; client and server never import each other;
// server/records and server/bff talk HTTP only.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const zone = (files, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});
const msg = (group, message) => ({ group, message });

export default tseslint.config(
  { ignores: ['dist/', 'dev-dist/', 'node_modules/', '.trapline*/', 'coverage/', 'test/.output/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  zone(['src/shared/**'], [msg(['**/client/**', '**/server/**'], 'shared imports zod only')]),
  zone(['src/client/**'], [msg(['**/server/**'], 'client never imports server')]),
  zone(['src/server/**'], [msg(['**/client/**'], 'server never imports client')]),
  // A later zone replaces an earlier one's rule for the same file (flat config does not merge
  // rule options), so each zone repeats the server → client ban.
  zone(
    ['src/server/records/**'],
    [
      msg(['**/client/**'], 'server never imports client'),
      msg(['**/bff/**', '**/server/main*'], 'records and bff talk HTTP only'),
    ],
  ),
  zone(
    ['src/server/bff/**'],
    [
      msg(['**/client/**'], 'server never imports client'),
      msg(['**/records/**', '**/server/main*'], 'records and bff talk HTTP only'),
    ],
  ),
  zone(
    ['src/server/db/**', 'src/server/http/**'],
    [
      msg(['**/client/**'], 'server never imports client'),
      msg(
        ['**/records/**', '**/bff/**', '**/server/main*'],
        'db and http are shared by records and bff',
      ),
    ],
  ),
  zone(
    ['src/client/ui/**', 'src/client/lib/**'],
    [
      msg(
        [
          '**/client/db/**',
          '**/client/sync/**',
          '**/client/features/**',
          '**/client/app/**',
          '**/server/**',
        ],
        'ui and lib are leaves',
      ),
    ],
  ),
  zone(
    ['src/client/db/**'],
    [
      msg(
        ['**/client/sync/**', '**/client/features/**', '**/client/app/**', '**/server/**'],
        'db imports only shared, lib',
      ),
    ],
  ),
  zone(
    ['src/client/sync/**'],
    [
      msg(
        ['**/client/features/**', '**/client/app/**', '**/server/**'],
        'sync sits below features',
      ),
    ],
  ),
  ...[
    'auth',
    'sites',
    'collections',
    'pools',
    'pool-tests',
    'map',
    'sync-status',
    'settings',
    'home',
  ].map((f) =>
    zone(
      [`src/client/features/${f}/**`],
      [
        msg(['../../app/**', '**/client/app/**', '**/server/**'], 'features sit below app'),
        // '../x' from a feature file is a sibling feature; '../../db', '../../lib', ... are the
        // layers below (allowed) unless they lead back into another feature.
        msg(
          [
            '../*/**',
            '!../' + f + '/**',
            '!../../**',
            '../../features/**',
            '!../../features/' + f + '/**',
          ],
          'a feature never imports another feature; compose in client/app',
        ),
      ],
    ),
  ),
);
