import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { SuiteSequencer } from './suite-sequencer';

const ROOT = '/checkout';

/** A file of `project` as Vitest hands it to a sequencer: its size, and last run's duration. */
type File = { project: string; path: string; size: number; ms?: number };

function sortedNames(files: File[]): Promise<string[]> {
  const known = new Map(files.map((f) => [`${f.project}:${f.path}`, f]));
  const ctx = {
    config: { root: ROOT },
    cache: {
      getFileTestResults: (key: string) => {
        const ms = known.get(key)?.ms;
        return ms === undefined ? undefined : { duration: ms, failed: false };
      },
      getFileStats: (key: string) => ({ size: known.get(key)?.size ?? 0 }),
    },
  } as unknown as Vitest;
  const specs = files.map(
    (f) =>
      ({
        moduleId: `${ROOT}/${f.path}`,
        project: { name: f.project, config: { sequence: { groupOrder: 0 }, isolate: false } },
      }) as unknown as TestSpecification,
  );
  return new SuiteSequencer(ctx)
    .sort(specs)
    .then((sorted) => sorted.map((s) => s.moduleId.slice(ROOT.length + 1)));
}

describe('the order a run hands its files to the workers', () => {
  it('starts the long-running projects first and ends on the many short client files', async () => {
    const order = await sortedNames([
      { project: 'client', path: 'test/client/a.test.tsx', size: 9_000 },
      { project: 'shared', path: 'test/architecture.test.ts', size: 4_000 },
      { project: 'server', path: 'test/server/b.test.ts', size: 3_000 },
      { project: 'client-node', path: 'test/client/c.node.test.ts', size: 2_000 },
      { project: 'e2e', path: 'test/e2e/d.test.ts', size: 1_000 },
      { project: 'chaos', path: 'test/chaos/chaos.test.ts', size: 500 },
    ]);
    expect(order).toEqual([
      'test/chaos/chaos.test.ts',
      'test/e2e/d.test.ts',
      'test/server/b.test.ts',
      'test/architecture.test.ts',
      'test/client/c.node.test.ts',
      'test/client/a.test.tsx',
    ]);
  });

  it('keeps a project’s files together, the longest last time first, else the largest', async () => {
    const order = await sortedNames([
      { project: 'server', path: 'test/server/short.test.ts', size: 9_000, ms: 1_000 },
      { project: 'client', path: 'test/client/small.test.tsx', size: 1_000 },
      { project: 'server', path: 'test/server/long.test.ts', size: 1_000, ms: 30_000 },
      { project: 'client', path: 'test/client/large.test.tsx', size: 8_000 },
    ]);
    expect(order).toEqual([
      'test/server/long.test.ts',
      'test/server/short.test.ts',
      'test/client/large.test.tsx',
      'test/client/small.test.tsx',
    ]);
  });
});
