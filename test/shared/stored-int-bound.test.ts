import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The largest number the records service stores (PostgreSQL int4) is one fact: MAX_STORED_INT in
 * shared/schemas/common.ts. Written out again, one copy can change without the others (issue 41:
 * it stood under five names), and a label scan, a batch id and a body would disagree about it.
 */
const BOUND = /2_?147_?483_?647|2\s*\*\*\s*31\b|0x7fffffff/i;
const HOME = 'src/shared/schemas/common.ts';

describe('the int4 bound', () => {
  it('is written once, in shared/schemas/common.ts; every other module names MAX_STORED_INT', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => /^src\/.*\.tsx?$/.test(f) && !f.startsWith('src/server/db/migrations/'));
    const writers = files.filter((f) => {
      try {
        return readFileSync(f, 'utf8')
          .split('\n')
          .some((line) => !/^\s*(\/\/|\*|\/\*)/.test(line) && BOUND.test(line));
      } catch {
        return false; // listed by git but deleted in the working tree
      }
    });
    expect(writers).toEqual([HOME]);
  });
});
