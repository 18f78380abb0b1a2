/// <reference types="vitest/config" />
import { defineConfig, runnerImport } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AliasOptions, Plugin } from 'vite';
import { parse as parseMessage } from '@formatjs/icu-messageformat-parser';
// With its extension: Vite's native config loader (its coming default) takes no bare paths.
import { writeCompressedCopies } from './src/server/bff/compressed-copies.ts';
import { SuiteSequencer } from './test/tools/suite-sequencer.ts';

const BFF = process.env.TRAPLINE_DEV_BFF ?? 'http://127.0.0.1:8080';

/**
 * The sign-in screen's chunks are preloaded by index.html, beside the entry: on a first visit
 * they were asked for only once the entry had run (a second round trip before the form, on a
 * slow link the largest part of the sign-in page's first paint after the entry itself). A
 * returning technician's browser gets them from the service worker's cache, and most of their
 * bytes (zod, the form fields) are the signed-in app's too. So are the entry's own stages
 * (main.tsx imports React DOM and then the app, each evaluated in a task of its own): imported
 * dynamically, they would otherwise be asked for only once the entry ran.
 */
const PRELOADED = ['/src/client/features/auth/sign-in-screen.tsx', '/src/client/app/start-app.tsx'];
const preloadSignIn: Plugin = {
  name: 'trapline-preload-sign-in',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk');
      const files = new Set<string>();
      const add = (fileName: string) => {
        if (files.has(fileName) || html.includes(`/${fileName}"`)) return;
        files.add(fileName);
        const chunk = chunks.find((c) => c.fileName === fileName);
        for (const imported of chunk?.imports ?? []) add(imported);
      };
      for (const module of PRELOADED) {
        const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(module));
        if (!chunk) throw new Error(`no chunk for ${module}: its preload would be missing`);
        add(chunk.fileName);
      }
      return [...files].map((file) => ({
        tag: 'link',
        attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
        injectTo: 'head' as const,
      }));
    },
  },
};

// `#shared/x` is src/shared/x and `#shared` src/shared/index.ts everywhere (tsconfig.json
// paths, eslint.config.js resolver).
const SHARED_ALIAS: AliasOptions = [
  {
    find: /^#shared$/,
    replacement: fileURLToPath(new URL('./src/shared/index.ts', import.meta.url)),
  },
  { find: /^#shared\//, replacement: fileURLToPath(new URL('./src/shared/', import.meta.url)) },
];

/**
 * The sign-in screen, rendered into index.html by the build: a first visit on a slow link paints
 * the form from the page itself instead of after ~150 KiB of scripts and React's first render
 * (Lighthouse, issue 40: first paint = largest paint 2.6 s). Rendered by React from the real
 * screen (src/client/app/sign-in-prerender.tsx, loaded with Vite's module runner), so it cannot
 * drift from it; app/start-app.tsx hydrates it. With it, in <head>, the small gate that hides it from a
 * tablet it is not for (src/client/lib/prerendered-sign-in.ts); the BFF's CSP allows that
 * inline script by its hash, read from the built index.html (src/server/bff/inline-scripts.ts).
 */
const SIGN_IN_PRERENDER = fileURLToPath(
  new URL('./src/client/app/sign-in-prerender.tsx', import.meta.url),
);
type SignInPrerender = {
  signInScreenMarkup(): string;
  signInShellGateScript(): string;
};
function prerenderSignIn(messages: Plugin): Plugin {
  return {
    name: 'trapline-prerender-sign-in',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        const { module } = await runnerImport<SignInPrerender>(SIGN_IN_PRERENDER, {
          configFile: false,
          logLevel: 'error',
          resolve: { alias: SHARED_ALIAS },
          plugins: [messages],
        });
        const empty = '<div id="root"></div>';
        if (!html.includes(empty) || !html.includes('</title>'))
          throw new Error(`index.html needs a <title> and ${empty} to prerender the sign-in`);
        // No whitespace around the markup: hydration expects the container to hold it exactly.
        // The gate right after the title: after <meta charset> (which must come in the first
        // 1,024 bytes) and before the stylesheet (a script after one waits for it to load).
        return html
          .replace(empty, `<div id="root">${module.signInScreenMarkup()}</div>`)
          .replace('</title>', `</title>\n    <script>${module.signInShellGateScript()}</script>`);
      },
    },
  };
}

/**
 * The entry's stylesheet (2.5 KiB gzip) inlined into index.html: with the sign-in screen in the
 * page, that stylesheet was all the first paint waited for, a round trip on a slow link shared
 * with the scripts' preloads (Lighthouse: render-blocking, 190-300 ms). The <link> stays,
 * `disabled` (never fetched, never applied), for Vite's preload helper: a lazy chunk that lists
 * the entry's CSS among its dependencies looks for that link and, finding none, would load the
 * file again after the screen's own styles, changing the cascade.
 */
const inlineEntryStyles: Plugin = {
  name: 'trapline-inline-entry-styles',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      const links = [...html.matchAll(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g)];
      if (links.length !== 1)
        throw new Error(`expected one entry stylesheet, found ${links.length}`);
      const [link, fileName] = links[0]!;
      const asset = ctx.bundle?.[fileName!];
      if (asset?.type !== 'asset') throw new Error(`no built stylesheet ${fileName}`);
      const css = String(asset.source);
      // Inline, a relative url() would resolve against the page, not /assets/.
      if (/url\(\s*['"]?(?!data:|\/|https?:)/.test(css) || css.includes('</style'))
        throw new Error(`${fileName} cannot be inlined as it is: relative url() or </style>`);
      return html.replace(link, `<style>${css}</style>\n    ${link.replace(/>$/, ' disabled>')}`);
    },
  },
};

/** Client test files that run in Node against the real servers (the client-node project). */
const CLIENT_IN_NODE = 'test/client/**/*.node.test.ts';

/**
 * Both client projects' files share their worker's modules (and, in jsdom, the DOM) instead of
 * loading them per file: half the jsdom project's CPU (97 -> 47 s) and wall time (50 -> 25 s).
 * What a file changes lives in its tests' hooks: Testing Library's cleanup (setup.ts), each
 * engine's cleanup (setup-engine's onTestFinished) and stubbed globals (unstubGlobals).
 */
const CLIENT_FILES = {
  isolate: false,
  unstubGlobals: true,
  setupFiles: ['test/client/setup.ts'],
};

/**
 * zod turns schemas into JSON Schema for the server's OpenAPI document only, but every zod schema
 * class links its JSON-Schema processor, so zod's two JSON-Schema modules (18 KB, ~4.5 KiB gzip)
 * rode along in the app's first load. In the app's build they are replaced by a module whose
 * functions say why they are missing: nothing in the app asks for JSON Schema (a call would throw,
 * loudly, in the browser tests). Build only, and not the workers' builds: tests, the server and
 * the workers keep the real modules.
 */
const NO_JSON_SCHEMA = '\0trapline-no-json-schema';
const ZOD_JSON_SCHEMA = /\/(json-schema-processors|to-json-schema)\.js$/;
const withoutClientJsonSchema = {
  name: 'trapline-without-client-json-schema',
  apply: 'build' as const,
  enforce: 'pre' as const,
  resolveId(id: string, importer?: string) {
    const fromZod = importer?.includes('/node_modules/zod/') ?? false;
    return fromZod && ZOD_JSON_SCHEMA.test(id) ? NO_JSON_SCHEMA : null;
  },
  load(id: string) {
    if (id !== NO_JSON_SCHEMA) return null;
    // Every name the two modules export (read from zod itself, so a new one is never missing).
    const core = fileURLToPath(new URL('./node_modules/zod/v4/core/', import.meta.url));
    const names = new Set(
      ['json-schema-processors.js', 'to-json-schema.js'].flatMap((file) =>
        [...readFileSync(core + file, 'utf8').matchAll(/^export (?:const|function) (\w+)/gm)].map(
          (m) => m[1],
        ),
      ),
    );
    return [
      "const missing = () => { throw new Error('JSON Schema is not in the app build (vite.config.ts)'); };",
      // create…Method are factories (a schema's `~standard` getter calls them): they return the
      // method, which throws when called.
      ...[...names].map((name) =>
        name.startsWith('create')
          ? `export const ${name} = () => missing;`
          : `export const ${name} = missing;`,
      ),
    ].join('\n');
  },
};

/**
 * The app's message catalogues (src/client/lib/i18n/messages/<locale>.json, `{ id: ICU message }`)
 * are compiled as they are imported, in the build, the dev server and the tests alike: each
 * message becomes its ICU syntax tree, still JSON, so the browser formats without parsing. Nothing
 * generated is committed, so a catalogue and what the app shows can never disagree. A message
 * that does not parse fails the build, naming it.
 */
const CATALOGUE = /\/src\/client\/lib\/i18n\/messages\/[\w-]+\.json$/;
const compiledMessages: Plugin = {
  name: 'trapline-compiled-messages',
  enforce: 'pre',
  transform: {
    filter: { id: CATALOGUE },
    handler(code, id) {
      const source = JSON.parse(code) as Record<string, string>;
      const compiled = Object.fromEntries(
        Object.entries(source).map(([key, message]) => {
          try {
            return [key, parseMessage(message)];
          } catch (error) {
            throw new Error(`${id}: message "${key}" is not valid ICU`, { cause: error });
          }
        }),
      );
      return { code: JSON.stringify(compiled), map: null };
    },
  },
};

/**
 * With every catalogue compiled (above), the app needs no ICU parser: react-intl gets the
 * parser's no-parser build (about 9 KB less in the first load). Build only: tests and the dev
 * server keep the parser, which formats a `defaultMessage` missing from a catalogue.
 */
const withoutMessageParser: Plugin = {
  name: 'trapline-without-message-parser',
  apply: 'build',
  enforce: 'pre',
  resolveId: {
    // Only this id reaches the hook (the bundler filters), not every import of the build.
    filter: { id: /^@formatjs\/icu-messageformat-parser$/ },
    handler(_id, importer, options) {
      return this.resolve('@formatjs/icu-messageformat-parser/no-parser.js', importer, options);
    },
  },
};

/**
 * Brotli and gzip copies of the build's files, for the BFF to send to browsers that accept them
 * (src/server/bff/compressed-copies.ts). Written after every other plugin's last step (the PWA
 * plugin writes sw.js when the bundle closes), so no file changes after its copy is made.
 */
function compressedCopies(): Plugin {
  let outDir = '';
  return {
    name: 'trapline-compressed-copies',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await writeCompressedCopies(outDir);
      },
    },
  };
}

export default defineConfig({
  resolve: { alias: SHARED_ALIAS },
  plugins: [
    withoutClientJsonSchema,
    compiledMessages,
    withoutMessageParser,
    compressedCopies(),
    preloadSignIn,
    prerenderSignIn(compiledMessages),
    inlineEntryStyles,
    react(),
    VitePWA({
      // The app asks before activating a new version: never reload under an open form.
      registerType: 'prompt',
      injectRegister: null,
      includeAssets: ['favicon.svg', 'icons/*.png'],
      manifest: {
        name: 'Trapline',
        short_name: 'Trapline',
        description: 'Offline-first trap collections, pools and tests for vector control',
        theme_color: '#14532d',
        background_color: '#f8faf8',
        display: 'standalone',
        orientation: 'any',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          {
            src: '/icons/icon-maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      workbox: {
        // wasm: the scanner's ZXing reader (features/scan), so scanning works offline.
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,wasm}'],
        navigateFallback: '/index.html',
        // The first install takes the page it was installed from: without it, a tablet that
        // signed in once and lost signal before any reload fetched every screen not yet opened
        // (lazy chunks) from the network, and they did not open (test/e2e/first-visit-offline).
        // Updates still wait for the technician's yes (registerType 'prompt': no skipWaiting).
        clientsClaim: true,
        navigateFallbackDenylist: [/^\/api\//],
        cleanupOutdatedCaches: true,
        // Map tiles seen once stay available in the field. TILE_URL is the BFF's run-time setting,
        // unknown at build time, so tiles are recognised by shape: a cross-origin image at
        // …/{z}/{x}/{y}.png (the CSP lets the page load outside images from the tile host only).
        // Only 200s are kept: Leaflet asks with crossOrigin, so an opaque answer (status 0, maybe an
        // error page) is never cached for good. When tiles cannot load the map shows its background.
        runtimeCaching: [
          {
            urlPattern: ({ url, request, sameOrigin }) =>
              !sameOrigin &&
              request.destination === 'image' &&
              /\/\d+\/\d+\/\d+(@2x)?\.(png|jpe?g|webp)$/.test(url.pathname),
            handler: 'CacheFirst',
            options: {
              cacheName: 'trapline-tiles',
              expiration: {
                maxEntries: 3000,
                maxAgeSeconds: 30 * 24 * 60 * 60,
                purgeOnQuotaError: true,
              },
              cacheableResponse: { statuses: [200] },
              // Saved map areas (features/map-areas) live in their own cache, 'trapline-areas',
              // outside this one's 3,000-entry / 30-day expiration, which would otherwise evict
              // an area the technician saved for the field. This plugin (listed after the
              // expiration, so it runs after it) answers from the saved areas first; the
              // runtime cache and then the network serve the rest. A plugin keeps generateSW
              // (no hand-written service worker) and the expiration of viewed tiles as they are.
              plugins: [
                {
                  cachedResponseWillBeUsed: async ({
                    request,
                    cachedResponse,
                  }: {
                    request: Request;
                    cachedResponse?: Response;
                  }) =>
                    (await caches.match(request.url, { cacheName: 'trapline-areas' })) ??
                    cachedResponse ??
                    null,
                },
              ],
            },
          },
        ],
      },
    }),
  ],
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 600,
    // Rolldown warns (PLUGIN_TIMINGS) when plugins take most of a build: on a loaded two-core
    // machine the service worker's precache step always does, and `npm start` must print no
    // warning a new user would read as trouble (issue 38). Build time is a bench's business.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  server: { proxy: { '/api': { target: BFF, changeOrigin: false } } },
  test: {
    reporters: ['default', './test/summary-reporter.ts'],
    // Longest-running projects first, the many short client files last (test/tools).
    sequence: { sequencer: SuiteSequencer },
    // One migrated embedded database per run, dumped; each test file's PGlite starts from it.
    globalSetup: ['./test/pglite-template.ts'],
    // Four workers on this machine's two cores: a test file waits on servers, browsers, timers
    // and tokens running out much of its time. Measured on the whole suite (1,344 tests, 26
    // browser files among them): 3 workers 383-406 s at 1.4 cores busy, 4 workers 331 s,
    // 5 workers 330 s with every file slower. (Earlier, with modules loaded per file, 2 took
    // 6.9 min, 3 took 5.9, 4 took 6.0.)
    maxWorkers: 4,
    // TRAPLINE_FILE_CPU=<file>: every test file's CPU-seconds (its worker's and its children's)
    // appended to <file> (test/tools/file-cpu.ts). Vitest's durations are wall time only.
    // One whole run so, 2026-11-29 (1,951 tests, load 13-23 from other work): 1,093 CPU-s, of
    // which server 462 (148 files; report-bounds 48, main 39, backup-drill 34, the records CLI
    // 19), e2e 357 (44 files, 4-19 each: a stack ~0.7 and a signed-in browser ~3 of it), client
    // 120 (157), chaos 42, client-node 34, shared and the architecture suite 19; the rest is
    // Vitest itself and the global set-ups. `npm run check` beside it: 158 more.
    setupFiles: process.env.TRAPLINE_FILE_CPU ? ['./test/tools/file-cpu.ts'] : [],
    // Time limits catch hangs; they are not speed goals (those are benches). A loaded two-core
    // VM ran a client test that takes ~1.5 s here past the 5 s default: every project gets room.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          // test/*.test.ts: suites about the whole code base (its architecture rules);
          // test/tools: the machinery that runs the suite.
          include: ['test/shared/**/*.test.ts', 'test/*.test.ts', 'test/tools/**/*.test.ts'],
          environment: 'node',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts'],
          environment: 'node',
          // Files share their worker's modules (PGlite's WebAssembly compiled once per worker,
          // not per file): CPU 310 -> 180 s, wall 159 -> 95 s, green in three file orders.
          // Every file makes its own database and servers and closes them in its hooks.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          include: ['test/client/**/*.test.{ts,tsx}'],
          // Vitest's default excludes, written out: `npm start` builds the app with this file,
          // where only production dependencies may be installed (vitest is a dev dependency).
          exclude: ['**/node_modules/**', '**/.git/**', CLIENT_IN_NODE],
          // Vitest's "environment" time is this jsdom's one set-up per worker, reported again
          // against every file the worker runs: its sum over files (1,310 s in a run of this
          // project alone, load 14) is not time spent. The project took 153 CPU-s for 618 tests
          // (TRAPLINE_FILE_CPU: under 1 CPU-s a file, mostly its imports and its own tests), so
          // happy-dom could save only those few set-ups (2026-11-29).
          environment: 'jsdom',
          ...CLIENT_FILES,
        },
      },
      {
        extends: true,
        test: {
          // The client's code against the real BFF and records service: no DOM, so Node. A
          // project of their own, not a `@vitest-environment node` comment in the client project:
          // Vitest keeps a worker for the next file only when that file's environment is the same,
          // so ten Node files sorted in among the jsdom ones stopped and started workers all
          // through the project (19 processes, each loading jsdom and React again, for 4 slots).
          name: 'client-node',
          include: [CLIENT_IN_NODE],
          environment: 'node',
          ...CLIENT_FILES,
        },
      },
      {
        extends: true,
        test: {
          // The seeded fault matrix (npm run chaos runs more seeds): spawns its own servers.
          name: 'chaos',
          include: ['test/chaos/**/*.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          // As the server files: each starts its own stack and browser and stops them.
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // What a person sees in a real browser comes when the page gets the CPU: on a loaded
          // two-core CI machine a step's result took over a second twice (Follow me pressed,
          // the nearest list after a new fix; both under 0.2 s alone and with four busy cores).
          // A wait that fails still fails, later.
          expect: { poll: { timeout: 10_000 } },
          globalSetup: ['./test/e2e/harness/build-app-once.ts'],
          // The app build above goes on beside the run's first files: each browser file waits
          // for it before its hooks start (their time limits are for the file's own work).
          setupFiles: ['./test/e2e/harness/await-app-build.ts'],
        },
      },
    ],
  },
});
