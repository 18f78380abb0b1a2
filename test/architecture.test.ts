import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import directions of ARCHITECTURE.md are lint errors on resolved paths. Each probe is a
 * file that would sit in one layer and import a real module of a layer it may not use, spelt as
 * a relative path (the spelling a text match let through): `npm run lint` must refuse it.
 */
const eslint = new ESLint();

/** The messages of the rules `rule` matches (and any fatal parse error) for `code` at `filePath`. */
async function lintMessages(filePath: string, code: string, rule: RegExp): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages
    .filter((m) => m.fatal || (m.ruleId !== null && rule.test(m.ruleId)))
    .map((m) => `${m.ruleId}: ${m.message}`);
}

const ruleErrors = (filePath: string, code: string) =>
  lintMessages(filePath, code, /^import-x\/no-restricted-paths$/);

const CROSSINGS: Array<[string, string, string]> = [
  ['src/shared/probe.ts', "import '../client/lib/dates';", 'shared → client'],
  ['src/shared/probe.ts', "import '../server/http/json-depth';", 'shared → server'],
  ['src/client/lib/probe.ts', "import '../ui/dialog';", 'lib → ui'],
  ['src/client/lib/probe.ts', "import '../db/database';", 'lib → db'],
  ['src/client/ui/probe.ts', "import '../db/database';", 'ui → db'],
  ['src/client/db/probe.ts', "import '../sync/sync-engine';", 'db → sync'],
  ['src/client/db/probe.ts', "import '../features/home/home-screen';", 'db → features'],
  ['src/client/sync/probe.ts', "import '../features/home/home-screen';", 'sync → features'],
  ['src/client/sync/probe.ts', "import '../app/app';", 'sync → app'],
  ['src/client/features/sites/probe.ts', "import '../../app/app';", 'features → app'],
  [
    'src/client/features/sites/probe.ts',
    "import '../collections/collection-schema';",
    'feature → feature',
  ],
  ['src/client/features/map/probe.ts', "import '../sites/site-schema';", 'feature → feature'],
  ['src/client/app/probe.ts', "import '../../server/bff/app';", 'client → server'],
  ['src/server/bff/probe.ts', "import '../../client/lib/dates';", 'server → client'],
  ['src/server/bff/probe.ts', "import '../records/app';", 'bff → records'],
  ['src/server/records/probe.ts', "import '../bff/app';", 'records → bff'],
  ['src/server/http/probe.ts', "import '../records/app';", 'http → records'],
  ['src/server/db/probe.ts', "import '../bff/app';", 'db → bff'],
  // The build's config runs in Node: the app it builds, or a server's modules beyond the build
  // step they share (compressed-copies), would pull browser code or a database into every build.
  ['vite.config.ts', "import './src/client/lib/dates';", 'build config → app'],
  ['vite.config.ts', "import './src/server/records/app';", 'build config → records service'],
  ['vite.config.ts', "import './src/server/bff/app';", 'build config → BFF'],
];

describe('the architecture as lint rules', () => {
  // The first lint loads every plugin and resolver: seconds on a busy machine, so not in a test.
  beforeAll(async () => {
    await eslint.lintText("import './dates';", { filePath: 'src/client/lib/probe.ts' });
    // The first file of the type-aware zones builds the TypeScript program (tens of seconds).
    await eslint.lintText("import './sync-engine';", { filePath: 'src/client/sync/probe.ts' });
  }, 120_000);

  it.each(CROSSINGS)('%s: refuses %s (%s)', async (file, code) => {
    expect(await ruleErrors(file, code)).toHaveLength(1);
  });

  it('lets each layer import the layers below it', async () => {
    expect(await ruleErrors('src/client/ui/probe.ts', "import '../lib/dates';")).toEqual([]);
    expect(await ruleErrors('src/client/db/probe.ts', "import '../ui/dialog';")).toEqual([]);
    expect(await ruleErrors('src/client/sync/probe.ts', "import '../db/database';")).toEqual([]);
    expect(
      await ruleErrors('src/client/features/sites/probe.ts', "import '../../sync/sync-engine';"),
    ).toEqual([]);
    expect(
      await ruleErrors('src/client/features/sites/probe.ts', "import './site-schema';"),
    ).toEqual([]);
    expect(
      await ruleErrors('src/client/app/probe.ts', "import '../features/home/home-screen';"),
    ).toEqual([]);
    expect(await ruleErrors('src/server/bff/probe.ts', "import '../http/json-depth';")).toEqual([]);
    expect(
      await ruleErrors('vite.config.ts', "import './src/server/bff/compressed-copies.ts';"),
    ).toEqual([]);
  });
});

/**
 * Type-aware rules on the sync core and the servers: a promise nobody awaits or handles is a
 * write that may not have happened, or a rejection nobody handles (a crash in Node).
 */
describe('promises in the sync core and the servers', () => {
  const promiseErrors = (filePath: string, code: string) =>
    lintMessages(filePath, code, /-promises$/);
  const save = 'async function save(): Promise<void> {}\n';

  it.each(['src/client/sync/probe.ts', 'src/server/records/probe.ts', 'src/server/bff/probe.ts'])(
    '%s: refuses a forgotten await and an async callback where nothing waits for it',
    async (file) => {
      expect(await promiseErrors(file, `${save}export function go() { save(); }\n`)).toEqual([
        expect.stringMatching(/^@typescript-eslint\/no-floating-promises:/),
      ]);
      expect(
        await promiseErrors(file, `${save}export function go() { setInterval(save, 1000); }\n`),
      ).toEqual([expect.stringMatching(/^@typescript-eslint\/no-misused-promises:/)]);
      expect(
        await promiseErrors(
          file,
          `${save}export async function go() { await save(); setInterval(() => void save(), 1000); }\n`,
        ),
      ).toEqual([]);
    },
  );
});

describe('the shared layer by its alias', () => {
  const climbErrors = (filePath: string, code: string) =>
    lintMessages(filePath, code, /^no-restricted-imports$/);

  it.each([
    ['src/client/db/probe.ts', "import { ENTITIES } from '../../shared';"],
    [
      'src/client/features/sites/probe.ts',
      "import type { Site } from '../../../shared/schemas/site';",
    ],
    ['src/server/records/probe.ts', "export { id } from '../../shared/schemas/common';"],
  ])('%s: refuses %s', async (file, code) => {
    expect(await climbErrors(file, code)).toEqual([
      expect.stringContaining("Import the shared layer as '#shared' or '#shared/…'."),
    ]);
  });

  it('lets #shared, #shared/… and the shared layer’s own relative imports pass', async () => {
    expect(
      await climbErrors('src/client/db/probe.ts', "import { ENTITIES } from '#shared';"),
    ).toEqual([]);
    expect(
      await climbErrors('src/server/bff/probe.ts', "import { id } from '#shared/schemas/common';"),
    ).toEqual([]);
    expect(
      await climbErrors('src/shared/reports/probe.ts', "import { id } from '../schemas/common';"),
    ).toEqual([]);
  });
});

describe('the layer chain as the docs draw it', () => {
  it('README and docs/architecture.md draw the chain lint enforces', async () => {
    const { readFile } = await import('node:fs/promises');
    // The order of eslint.config.js's `below(layer, …)` zones, bottom first: each layer sits
    // below every layer named after it.
    const config = await readFile('eslint.config.js', 'utf8');
    const layers = [...config.matchAll(/below\('(\w+)', \[/g)].map((m) => m[1]);
    expect(layers.length).toBeGreaterThan(3);
    const chain = ['shared', ...layers.map((l) => `client/${l}`), 'client/app'].join('←');
    // Written across lines and in backticks in the prose; compared without them.
    const flat = (text: string) => text.replace(/[`\s]/g, '');
    for (const doc of ['README.md', 'docs/architecture.md'])
      expect(flat(await readFile(doc, 'utf8')), doc).toContain(chain);
  });
});
