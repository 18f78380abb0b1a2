import type { TestSequencer, TestSpecification, Vitest } from 'vitest/node';

/**
 * The order in which a run hands its projects' files to the workers, longest-running projects
 * first. Vitest's own order is the projects' names (chaos, client, client-node, e2e, server,
 * shared): the run ended on `shared`, whose architecture suite builds a TypeScript program (tens
 * of seconds), started when the other workers had little left, and the browser files, the
 * longest of all, sat in the middle. Long files first and the many short client files last leaves
 * the workers as little as possible to finish alone (longest-first is the classic rule for
 * finishing a set of jobs on a few machines soonest).
 *
 * A project's files stay together: a worker that shares its modules between files (isolate:
 * false) is kept for the next file only when that file is of the same project (Vitest's pool),
 * so interleaving projects would start a worker, with jsdom or PGlite to load, for nearly every
 * file. Within a project Vitest's order stands: the longest last time first, on a clean clone
 * (no durations yet) the largest first. A project not named here runs before `client`.
 */
const PROJECT_ORDER = ['chaos', 'e2e', 'server', 'shared', 'client-node', 'client'];

function rank(project: string): number {
  const at = PROJECT_ORDER.indexOf(project);
  return at === -1 ? PROJECT_ORDER.length - 1.5 : at;
}

/**
 * Vitest's BaseSequencer, loaded when a run sorts its files: vite.config.ts (which names this
 * class) is also loaded by `npm start`'s build, where Vitest, a dev dependency, may be missing.
 */
async function baseSequencer(ctx: Vitest): Promise<TestSequencer> {
  const { BaseSequencer } = await import('vitest/node');
  return new BaseSequencer(ctx);
}

export class SuiteSequencer implements TestSequencer {
  constructor(private readonly ctx: Vitest) {}

  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await baseSequencer(this.ctx)).shard(files);
  }

  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await (await baseSequencer(this.ctx)).sort(files);
    // Array.prototype.sort is stable: Vitest's order within each project is kept.
    return [...sorted].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        rank(a.project.name) - rank(b.project.name),
    );
  }
}
