import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, PHOTO_FAULT_KINDS } from './fault-plan';
import { formatReport, runMatrix } from './run-matrix';

/**
 * A fixed few seeds of the fault matrix (`npm run chaos` runs any number): seed 2 kills both the
 * BFF and the records service as an answer comes back; the three decks together deal every kind
 * of fault. One site of field work per seed keeps the set within about a minute on two cores;
 * so do a few small photos per seed (`light`), sent through every kind of upload fault too.
 */
const SEEDS = [2, 3, 14];

describe('the seeded fault matrix, a fixed set of seeds', () => {
  it('loses, duplicates, mixes up and strands no record and no photo while every kind of fault strikes', async () => {
    const lines: string[] = [];
    const report = await runMatrix(
      SEEDS,
      { sites: 1, chaosMs: 20_000, calmMs: 60_000, photos: 'light' },
      (l) => lines.push(l),
    );
    const printed = `${lines.join('\n')}\n\n${formatReport(report)}`;
    console.log(printed);

    expect(report.totals, printed).toMatchObject({
      lost: 0,
      duplicated: 0,
      wrong: 0,
      stuck: 0,
      problems: 0,
    });
    expect(report.crashes, printed).toEqual([]);
    expect(report.totals.entries).toBeGreaterThan(SEEDS.length * 10);
    expect(report.photos, printed).toMatchObject({ lost: 0, duplicated: 0, wrong: 0, stuck: 0 });
    expect(report.photos.photos).toBeGreaterThan(SEEDS.length * 5);
    // Photos of records whose creates were still queued (or being faulted) when they were taken.
    expect(report.photos.waited).toBeGreaterThan(SEEDS.length);
    const missing = FAULT_KINDS.filter((k) => report.faults[k] === 0);
    expect(missing, `kinds of fault never injected:\n${printed}`).toEqual([]);
    const missingOnPhotos = PHOTO_FAULT_KINDS.filter((k) => report.photoFaults[k] === 0);
    expect(missingOnPhotos, `kinds of fault never injected on uploads:\n${printed}`).toEqual([]);
  }, 600_000);
});
