import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every test file under test/, relative to the project root. */
function testFiles(dir = 'test'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Where a test lives (README, "Where tests live"): a folder of test/ mirrors a folder of src/,
 * or is one of these named places, each a kind of suite that spans modules.
 */
const NAMED_PLACES: Record<string, string> = {
  'test/e2e': 'real Chromium against the real BFF and records service',
  'test/bench': 'benchmarks (scripts that print figures)',
  'test/chaos': 'fault-injection runs',
  'test/tools': 'the scripts that run the suite',
  'test/server/records/audit': 'contract audits of every route: hostile and edge-case requests',
  'test/server/scale-out': 'several processes on one PostgreSQL',
  'test/client/features/lookups': 'the forms of every feature before and without the lists',
  'test/client/languages': 'every converted screen in each language, and the catalogues',
  'test/shared/reports/vectorsurvr': 'reference figures computed by vectorsurvR',
};
/** Folders of shared test code, wherever they sit. */
const HELPER_FOLDER = /\/(helpers|factories|harness)(\/|$)/;

/** Whether `dir` (under test/) mirrors a folder of src/ or sits in a named place. */
function placed(dir: string): boolean {
  if (dir === 'test' || HELPER_FOLDER.test(dir)) return true;
  if (Object.keys(NAMED_PLACES).some((p) => dir === p || dir.startsWith(`${p}/`))) return true;
  return existsSync(`src${dir.slice('test'.length)}`);
}

/** Suites of the client layers below features that render (.tsx): one that renders a feature lives with it. */
const RENDERING_BELOW_FEATURES = /^test\/client\/(lib|ui|db|sync)\/.*\.tsx$/;
const IMPORTS_A_SCREEN = /from '(\.\.\/)+src\/client\/(features|app)\//;

/** Vitest's per-file environment, a line comment or a docblock tag at the start of a line. */
const ENVIRONMENT_COMMENT = /^\s*(\/\/|\/?\*+)\s*@vitest-environment\b/m;

describe('the suite layout', () => {
  // Vitest keeps a worker for the next file only if that file has the same project and
  // environment: a file that changes its environment by a comment, sorted in among the others,
  // stops and starts workers all through its project (each loading jsdom and React again). Ten
  // such client files cost the suite ~45 CPU-s of its ~590 on two cores.
  it('sets each file’s environment by its project, never by a comment in the file', () => {
    const marked = testFiles().filter((file) =>
      ENVIRONMENT_COMMENT.test(readFileSync(file, 'utf8').slice(0, 2_000)),
    );
    expect(marked, 'name a client file that runs in Node *.node.test.ts (client-node)').toEqual([]);
  });

  it('keeps every test in the mirror of a src/ folder or in a named place', () => {
    const strays = [...new Set(testFiles().map(dirname))].filter((dir) => !placed(dir));
    expect(
      strays,
      'move them to the mirrored folder, or name the place here and in README',
    ).toEqual([]);
  });

  it('names in README exactly the named places it keeps', () => {
    const readme = readFileSync('README.md', 'utf8');
    const rule = readme.slice(
      readme.indexOf('Where tests live'),
      readme.indexOf('The design Trapline started from'),
    );
    const named = rule.slice(rule.indexOf('**Named places**'));
    const listed = [...named.matchAll(/`(test\/[^`]+)`/g)].map((m) => m[1]).sort();
    expect(listed, 'README "Where tests live" and NAMED_PLACES say the same').toEqual(
      Object.keys(NAMED_PLACES).sort(),
    );
  });

  it('keeps the suites that render a feature with the features, not under the layers below', () => {
    const misplaced = testFiles().filter(
      (file) =>
        RENDERING_BELOW_FEATURES.test(file) && IMPORTS_A_SCREEN.test(readFileSync(file, 'utf8')),
    );
    expect(misplaced, 'move them to test/client/features/<feature>/').toEqual([]);
  });
});
