// Lint rules, including the import directions of ARCHITECTURE.md, checked on RESOLVED paths
// (eslint-plugin-import-x no-restricted-paths: '../sync/x' from client/db is caught whatever way
// it is spelt), and no import cycles:
//   shared <- client/lib <- client/ui <- client/db <- client/sync <- client/features <- client/app
//   a feature never imports another feature (the app composes them);
//   server/db, server/http <- server/records, server/bff; records and bff talk HTTP only;
//   client and server never import each other; shared imports neither;
//   vite.config.ts imports neither the app nor a server's modules (but compressed-copies).
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

const FEATURES = readdirSync('src/client/features', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** `target` (files) may not import anything under any of `from`. */
const forbid = (target, from, message) => ({ target, from, message });
const below = (layer, above) =>
  forbid(
    `./src/client/${layer}`,
    above.map((a) => `./src/client/${a}`),
    `client/${layer} sits below ${above.join(', ')}`,
  );

const ARCHITECTURE_ZONES = [
  forbid(
    './src/shared',
    ['./src/client', './src/server'],
    'shared imports neither client nor server',
  ),
  forbid('./src/client', './src/server', 'client never imports server'),
  forbid('./src/server', './src/client', 'server never imports client'),
  below('lib', ['ui', 'db', 'sync', 'features', 'app']),
  below('ui', ['db', 'sync', 'features', 'app']),
  below('db', ['sync', 'features', 'app']),
  below('sync', ['features', 'app']),
  below('features', ['app']),
  ...FEATURES.map((f) => ({
    target: `./src/client/features/${f}`,
    from: './src/client/features',
    except: [`./${f}`],
    message: 'a feature never imports another feature; compose them in client/app',
  })),
  forbid(
    ['./src/server/db', './src/server/http'],
    ['./src/server/records', './src/server/bff', './src/server/main.ts'],
    'db and http are shared by records and bff',
  ),
  forbid(
    './src/server/records',
    ['./src/server/bff', './src/server/main.ts'],
    'records and bff talk HTTP only',
  ),
  forbid(
    './src/server/bff',
    ['./src/server/records', './src/server/main.ts'],
    'records and bff talk HTTP only',
  ),
];

// The build's config runs in Node at every build and test run: it may use the shared layer and
// the one build step it shares with the BFF (the compressed copies the BFF serves), never the app
// it builds nor a server's own modules (they would bring browser code or a database into it).
const BUILD_CONFIG_ZONES = [
  forbid('./vite.config.ts', './src/client', 'the build config never imports the app it builds'),
  {
    target: './vite.config.ts',
    from: './src/server',
    except: ['./bff/compressed-copies.ts'],
    message: 'the build config shares only compressed-copies with the servers',
  },
];

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

  {
    // Type-aware: a promise nobody awaits or handles in the sync core or a server is a write
    // that may not have happened, or an error that becomes an unhandled rejection (a crash).
    files: ['src/client/sync/**/*.{ts,tsx}', 'src/server/**/*.ts'],
    languageOptions: {
      parserOptions: {
        // The probe files of test/architecture.test.ts exist only in the linter's memory.
        projectService: {
          allowDefaultProject: ['src/client/sync/probe.ts', 'src/server/*/probe.ts'],
          defaultProject: 'tsconfig.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },

  {
    files: ['src/client/**/*.{ts,tsx}', 'src/server/**/*.ts'],
    rules: {
      // The shared layer by one name from everywhere outside it: a climb ('../../shared') reads
      // differently from each folder and breaks when a file moves.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+shared(/.*)?$',
              message: "Import the shared layer as '#shared' or '#shared/…'.",
            },
          ],
        },
      ],
    },
  },

  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js'],
          alias: { '#shared': [fileURLToPath(new URL('./src/shared', import.meta.url))] },
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: ARCHITECTURE_ZONES }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },

  {
    files: ['vite.config.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: BUILD_CONFIG_ZONES }],
    },
  },
);
