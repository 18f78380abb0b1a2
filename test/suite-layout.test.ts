import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every test file under test/, relative to the project root. */
function testFiles(dir = 'test'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

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
});
