import { describe, expect, it } from 'vitest';
import { abundanceReport, infectionRateReport } from '#shared/reports';
import { makeCollection, makePool } from './factories';

/**
 * Records that look alike on purpose are ordinary field work: each counts on its own, and only
 * what vectorsurvR would merge is merged.
 */
describe('look-alike records', () => {
  it('counts two traps of one kind at one place on one day as two trap events', () => {
    const twin = () =>
      makeCollection({ date: '2025-07-08', catch: [{ species: 'Cx tarsalis', count: 10 }] });
    expect(abundanceReport([twin(), twin()], { year: [2025] }).rows).toEqual([
      { Year: 2025, Week: 28, Count: 20, TrapEvents: 2, Abundance: 10 },
    ]);
  });

  it('counts equal pools each, and a pool re-tested positive then negative once per test', () => {
    const equal = () => makePool({ date: '2025-07-08', count: 25, tests: ['Negative'] });
    const pools = [
      equal(),
      equal(),
      makePool({ date: '2025-07-08', count: 25, tests: ['Confirmed', 'Negative'] }),
    ];
    // Σx = 1 over Σm = 4 × 25 (four pool rows): MIR 10 per 1000.
    const mir = infectionRateReport(pools, { year: [2025], pt_estimate: 'mir' }).rows;
    expect(mir).toMatchObject([{ Week: 28, InfectionRate: 10 }]);
    // Equal pools: the MLE has the closed form 1 − (1 − 1/4)^(1/25).
    const mle = infectionRateReport(pools, { year: [2025], pt_estimate: 'mle' }).rows;
    expect(mle[0].InfectionRate).toBeCloseTo((1 - 0.75 ** (1 / 25)) * 1000, 9);
  });

  it('keeps species whose names differ by case or spacing apart, as R does', () => {
    const rows = abundanceReport(
      [
        makeCollection({
          date: '2025-07-08',
          catch: [
            { species: 'Cx tarsalis', count: 4 },
            { species: 'Cx  tarsalis', count: 2 },
          ],
        }),
        makeCollection({ date: '2025-07-08', catch: [{ species: 'cx tarsalis', count: 1 }] }),
      ],
      { year: [2025], separate_by: ['species'] },
    ).rows;
    expect(rows.map((r) => [r.Species, r.Count])).toEqual([
      ['Cx  tarsalis', 2],
      ['Cx tarsalis', 4],
      ['cx tarsalis', 1],
    ]);
    // A filter names the display name exactly.
    const filtered = abundanceReport(
      [makeCollection({ date: '2025-07-08', catch: [{ species: 'Cx tarsalis', count: 4 }] })],
      { year: [2025], species: ['cx tarsalis'] },
    ).rows;
    expect(filtered).toEqual([{ Year: 2025, Week: 28, Count: 0, TrapEvents: 1, Abundance: 0 }]);
  });

  it('sums huge counts exactly and rounds the ratio as R', () => {
    const big = 2 ** 31 - 1;
    const rows = abundanceReport(
      Array.from({ length: 3 }, () =>
        makeCollection({ date: '2025-07-08', catch: [{ species: 'Cx tarsalis', count: big }] }),
      ),
      { year: [2025] },
    ).rows;
    expect(rows).toEqual([{ Year: 2025, Week: 28, Count: 3 * big, TrapEvents: 3, Abundance: big }]);
  });

  it('keeps pools of a season in its own year across the new year (MMWR week 53)', () => {
    const pools = [
      makePool({ date: '2020-12-31', count: 10, tests: ['Confirmed'] }),
      makePool({ date: '2021-01-02', year: 2020, count: 10, tests: ['Negative'] }),
      makePool({ date: '2021-01-04', count: 10, tests: ['Negative'] }),
    ];
    const rows = infectionRateReport(pools, { year: [2020, 2021], pt_estimate: 'mir' }).rows;
    expect(rows.map((r) => [r.Year, r.Week, r.InfectionRate])).toEqual([
      [2020, 53, 50],
      [2021, 1, 0],
    ]);
  });
});
