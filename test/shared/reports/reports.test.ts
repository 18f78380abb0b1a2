import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  abundanceAnomalyReport,
  abundanceReport,
  infectionRateReport,
  vectorIndexReport,
  type ReportCollection,
} from '#shared/reports';
import { makeCollection, makePool, type SexName } from './factories';

// Week 28 of 2025 runs Sunday 6 July – Saturday 12 July (week 1 began Sunday 29 December
// 2024); week 29 from 13 July.
const week = () => [
  // 1 night × 2 traps = 2 trap events; 15 females (two conditions), 7 males.
  makeCollection({
    date: '2025-07-08',
    traps: 2,
    catch: [
      { species: 'Cx tarsalis', sex: 'F-Mixed', count: 10 },
      { species: 'Cx tarsalis', sex: 'F-Gravid', count: 5 },
      { species: 'Cx pipiens', sex: 'Male', count: 7 },
    ],
  }),
  // An empty trap: 2 nights × 1 trap = 2 trap events, nothing caught.
  makeCollection({ date: '2025-07-10', trap: 'GRVD', nights: 2 }),
  // A trap problem: dropped entirely, catch and trap events.
  makeCollection({
    date: '2025-07-09',
    problem: true,
    catch: [{ species: 'Cx tarsalis', count: 100 }],
  }),
  // Week 29: 3 nights, 9 females.
  makeCollection({ date: '2025-07-15', nights: 3, catch: [{ species: 'Cx tarsalis', count: 9 }] }),
];

describe('abundance, worked by hand', () => {
  it('counts females per trap event, with empty traps in and trap problems out', () => {
    // Week 28: Count 10 + 5 = 15; TrapEvents 1·2 + 2·1 = 4 → 3.75. Week 29: 9 / 3 = 3.
    const r = abundanceReport(week());
    expect(r.columns).toEqual(['Year', 'Week', 'Count', 'TrapEvents', 'Abundance']);
    expect(r.rows).toEqual([
      { Year: 2025, Week: 28, Count: 15, TrapEvents: 4, Abundance: 3.75 },
      { Year: 2025, Week: 29, Count: 9, TrapEvents: 3, Abundance: 3 },
    ]);
  });

  it('counts every sex with sex=all', () => {
    // Week 28: 15 + 7 = 22 over 4 → 5.5.
    expect(abundanceReport(week(), { sex: 'all' }).rows[0]).toMatchObject({
      Count: 22,
      Abundance: 5.5,
    });
  });

  it('applies the trap-night range to the count only (vectorsurvR)', () => {
    // trapnight_max 2 drops week 29's 3-night catch, but its 3 trap events stay: 0 / 3.
    expect(abundanceReport(week(), { trapnight_max: 2 }).rows).toEqual([
      { Year: 2025, Week: 28, Count: 15, TrapEvents: 4, Abundance: 3.75 },
      { Year: 2025, Week: 29, Count: 0, TrapEvents: 3, Abundance: 0 },
    ]);
  });

  it('gives every species a row when separated, trap events shared by the species', () => {
    // Week 28, 4 trap events: Cx tarsalis 15 → 3.75; Cx pipiens (males only) 0; the empty
    // trap's row without species 0 (as R keeps NA among the default species), last.
    const rows = abundanceReport(week(), { separate_by: ['species'] }).rows.filter(
      (r) => r.Week === 28,
    );
    expect(rows).toEqual([
      { Year: 2025, Week: 28, Species: 'Cx pipiens', Count: 0, TrapEvents: 4, Abundance: 0 },
      { Year: 2025, Week: 28, Species: 'Cx tarsalis', Count: 15, TrapEvents: 4, Abundance: 3.75 },
      { Year: 2025, Week: 28, Species: null, Count: 0, TrapEvents: 4, Abundance: 0 },
    ]);
    // Asked species only, a species never caught included.
    const asked = abundanceReport(week(), {
      species: ['Cx tarsalis', 'Ae vexans'],
      separate_by: ['species'],
    }).rows.filter((r) => r.Week === 28);
    expect(asked.map((r) => [r.Species, r.Count])).toEqual([
      ['Ae vexans', 0],
      ['Cx tarsalis', 15],
    ]);
  });

  it('separates trap events by trap', () => {
    // Week 28: CO2 2 events, 15 → 7.5; GRVD (the empty trap) 2 events, 0.
    const rows = abundanceReport(week(), { separate_by: ['trap'] }).rows;
    expect(rows.slice(0, 2)).toEqual([
      { Year: 2025, Week: 28, Trap: 'CO2', Count: 15, TrapEvents: 2, Abundance: 7.5 },
      { Year: 2025, Week: 28, Trap: 'GRVD', Count: 0, TrapEvents: 2, Abundance: 0 },
    ]);
  });

  it('drops 0 trap nights and a missing trap-problem flag as vectorsurvR does', () => {
    const rows = abundanceReport([
      makeCollection({ date: '2025-07-08', nights: 0, catch: [{ species: 'A', count: 5 }] }),
      makeCollection({ date: '2025-07-08', problem: null, catch: [{ species: 'A', count: 5 }] }),
    ]).rows;
    expect(rows).toEqual([]);
  });

  it('groups by surv_year, so 31 December can be week 1 of its own season', () => {
    const rows = abundanceReport([
      makeCollection({ date: '2024-12-31', catch: [{ species: 'A', count: 4 }] }),
      makeCollection({ date: '2024-01-02', catch: [{ species: 'A', count: 2 }] }),
    ]).rows;
    // 2024-01-02 is in MMWR week 1 of 2024 too (week of Sunday 31 Dec 2023): 6 over 2.
    expect(rows).toEqual([{ Year: 2024, Week: 1, Count: 6, TrapEvents: 2, Abundance: 3 }]);
  });

  it("rounds as R: 77 over 160 trap events is 0.4812, not the nearest decimal's 0.4813", () => {
    const rows = abundanceReport([
      makeCollection({
        date: '2025-07-08',
        nights: 2,
        traps: 80,
        catch: [{ species: 'A', count: 77 }],
      }),
    ]).rows;
    expect(rows[0].Abundance).toBe(0.4812);
  });
});

describe('abundance anomaly, worked by hand', () => {
  // One collection each July (the same MMWR week is not the same date every year); year Y
  // caught Y − 2019 (2025: 10).
  const history = () => [
    ...[2019, 2020, 2021, 2022, 2023, 2024].map((y) =>
      makeCollection({ date: `${y}-07-08`, catch: [{ species: 'A', count: y - 2019 }] }),
    ),
    makeCollection({ date: '2025-07-08', catch: [{ species: 'A', count: 10 }] }),
  ];

  it('averages the five most recent earlier years', () => {
    // 2020–2024 caught 1, 2, 3, 4, 5 per trap event: average 3 (2019 is the sixth, left out).
    // Delta = round((10 − 3) / 3, 4) × 100 = 2.3333 × 100.
    const r = abundanceAnomalyReport(history(), { target_year: 2025, interval: 'Month' });
    expect(r.columns).toEqual([
      'Year',
      'Month',
      'Count',
      'TrapEvents',
      'Abundance',
      'FiveYearAvg',
      'YearsInAverage',
      'Delta',
    ]);
    expect(r.rows).toEqual([
      {
        Year: 2025,
        Month: 7,
        Count: 10,
        TrapEvents: 1,
        Abundance: 10,
        FiveYearAvg: 3,
        YearsInAverage: '2020,2021,2022,2023,2024',
        Delta: 2.3333 * 100,
      },
    ]);
  });

  it('skips a year without trap events (not necessarily consecutive years)', () => {
    // 2022's only collection had a trap problem: 2019, 2020, 2021, 2023, 2024 are averaged:
    // 0, 1, 2, 4, 5 → 12 / 5 = 2.4; Delta = round(7.6 / 2.4, 4) × 100 = 3.1667 × 100.
    const data = history().map((c) =>
      c.surv_year === 2022 ? { ...c, trap_problem_bit: true } : c,
    );
    const [row] = abundanceAnomalyReport(data, { target_year: 2025, interval: 'Month' }).rows;
    expect(row.YearsInAverage).toBe('2019,2020,2021,2023,2024');
    expect(row.FiveYearAvg).toBe(2.4);
    expect(row.Delta).toBe(3.1667 * 100);
  });

  it('has no average and no Delta without an earlier year, and nothing without the target', () => {
    const only = [makeCollection({ date: '2025-07-08', catch: [{ species: 'A', count: 3 }] })];
    expect(abundanceAnomalyReport(only, { target_year: 2025 }).rows[0]).toMatchObject({
      FiveYearAvg: null,
      YearsInAverage: null,
      Delta: null,
    });
    expect(abundanceAnomalyReport(only, { target_year: 2026 }).rows).toEqual([]);
  });

  it('matches collection dates by month and day', () => {
    const data = [
      makeCollection({ date: '2024-07-08', catch: [{ species: 'A', count: 4 }] }),
      makeCollection({ date: '2024-07-09', catch: [{ species: 'A', count: 100 }] }),
      makeCollection({ date: '2025-07-08', catch: [{ species: 'A', count: 6 }] }),
    ];
    // 07-08: 6 against 4 → round(0.5, 4) × 100 = 50.
    const rows = abundanceAnomalyReport(data, {
      target_year: 2025,
      interval: 'CollectionDate',
    }).rows;
    expect(rows).toEqual([
      expect.objectContaining({ CollectionDate: '2025-07-08', FiveYearAvg: 4, Delta: 50 }),
    ]);
  });
});

describe('infection rate, worked by hand', () => {
  const pools = () => [
    // One pool of 10 tested twice for WNV: two rows, x = (1, 0).
    makePool({ date: '2025-07-08', count: 10, tests: ['Confirmed', 'Negative'] }),
    // Pending counts as negative; its SLEV test does not count for WNV.
    makePool({ date: '2025-07-08', count: 20, tests: ['Pending', ['Confirmed', 'SLEV']] }),
    // Week 30: no positive pool.
    makePool({ date: '2025-07-22', count: 30, tests: ['Negative'] }),
    // Week 31: the only pool is positive.
    makePool({ date: '2025-07-29', count: 8, tests: ['Confirmed'] }),
    // A male pool: out with the default sex.
    makePool({ date: '2025-07-08', count: 5, sex: 'Male', tests: ['Confirmed'] }),
  ];

  it('MIR per 1000 counts a pool once per test', () => {
    // Week 28: Σx = 1, Σm = 10 + 10 + 20 = 40 → 1/40 × 1000 = 25.
    const rows = infectionRateReport(pools(), { pt_estimate: 'mir' }).rows;
    expect(rows.map((r) => [r.Week, r.InfectionRate])).toEqual([
      [28, 25],
      [30, 0],
      [31, 125], // 1 / 8
    ]);
    expect(rows[1]).toMatchObject({ LowerCI: 0, UpperCI: 0 });
  });

  it('gives BC-MLE by default, null where every pool is positive, 0 where none is', () => {
    const rows = infectionRateReport(pools()).rows;
    expect(rows.map((r) => r.Week)).toEqual([28, 30, 31]);
    expect(rows[1]).toMatchObject({ InfectionRate: 0, LowerCI: 0, UpperCI: 0 });
    expect(rows[2]).toMatchObject({ InfectionRate: null, LowerCI: null, UpperCI: null });
    const r = rows[0];
    expect(r.LowerCI!).toBeLessThanOrEqual(r.InfectionRate!);
    expect(r.InfectionRate!).toBeLessThanOrEqual(r.UpperCI!);
  });

  it('counts SLEV tests for SLEV, and males with sex=male', () => {
    // SLEV: the pool of 20, positive: every pool positive → MIR 1/20 = 50.
    const slev = infectionRateReport(pools(), { target_disease: 'SLEV', pt_estimate: 'mir' });
    expect(slev.rows.map((r) => r.InfectionRate)).toEqual([50]);
    const males = infectionRateReport(pools(), { sex: 'male', pt_estimate: 'mir', scale: 1 });
    expect(males.rows.map((r) => r.InfectionRate)).toEqual([1 / 5]);
  });
});

describe('vector index, worked by hand', () => {
  it('multiplies abundance by infection rate per species, and sums the CDC index', () => {
    const collections = [
      makeCollection({
        date: '2025-07-08',
        nights: 2,
        catch: [
          { species: 'Cx tarsalis', count: 30 },
          { species: 'Cx pipiens', count: 10 },
        ],
      }),
    ];
    const pools = [
      makePool({ date: '2025-07-08', count: 10, species: 'Cx tarsalis', tests: ['Confirmed'] }),
      makePool({ date: '2025-07-08', count: 40, species: 'Cx tarsalis', tests: ['Negative'] }),
    ];
    const r = vectorIndexReport(collections, pools, {
      pt_estimate: 'mir',
      separate_by: ['species'],
    });
    expect(r.columns.at(-1)).toBe('CDCVectorIndex');
    // Cx tarsalis: 30 / 2 = 15 per trap night; MIR 1/50 × 1000 = 20; VI = 300; CDC = 15 × 0.02
    // = 0.3. Cx pipiens: 5 per trap night, no pools: no VI, adds nothing to the CDC sum.
    expect(r.rows).toEqual([
      expect.objectContaining({
        Species: 'Cx pipiens',
        Abundance: 5,
        VectorIndex: null,
        CDCVectorIndex: 0.3,
      }),
      expect.objectContaining({
        Species: 'Cx tarsalis',
        Abundance: 15,
        InfectionRate: 20,
        VectorIndex: 300,
        CDCVectorIndex: 0.3,
      }),
    ]);
  });
});

describe('what must always hold', () => {
  const sexes: SexName[] = ['F-Mixed', 'F-Gravid', 'Male', 'Other'];
  const collection = fc
    .record({
      day: fc.integer({ min: 0, max: 400 }),
      nights: fc.integer({ min: 0, max: 3 }),
      traps: fc.integer({ min: 1, max: 3 }),
      problem: fc.boolean(),
      trap: fc.constantFrom('CO2', 'GRVD'),
      catch: fc.array(
        fc.record({
          species: fc.constantFrom('Cx tarsalis', 'Cx pipiens', null),
          sex: fc.constantFrom(...sexes),
          count: fc.integer({ min: 0, max: 500 }),
        }),
        { maxLength: 4 },
      ),
    })
    .map((c) => {
      const date = new Date(Date.UTC(2024, 5, 1) + c.day * 86_400_000).toISOString().slice(0, 10);
      return makeCollection({
        ...c,
        date,
        year: Number(date.slice(0, 4)),
        problem: c.problem && c.day % 5 === 0,
      });
    });
  const collections = fc.array(collection, { maxLength: 30 });
  const figures = (cs: ReportCollection[]) =>
    abundanceReport(cs, { interval: 'Biweek', separate_by: ['trap'] }).rows;

  it("leaves abundance unchanged when a trap's catch is split over two rows", () => {
    fc.assert(
      fc.property(collections, fc.nat(), (cs, pick) => {
        const withCatch = cs.filter((c) => (c.arthropods ?? []).some((a) => a.num_count >= 2));
        if (withCatch.length === 0) return;
        const target = withCatch[pick % withCatch.length];
        const split = cs.map((c) => {
          if (c !== target) return c;
          const first = c.arthropods!.find((a) => a.num_count >= 2)!;
          const half = Math.floor(first.num_count / 2);
          const others = c.arthropods!.filter((a) => a !== first);
          return {
            ...c,
            arthropods: [
              ...others,
              { ...first, num_count: half },
              { ...first, num_count: first.num_count - half },
            ],
          };
        });
        expect(figures(split)).toEqual(figures(cs));
      }),
    );
  });

  it('keeps Count / TrapEvents = Abundance to 4 decimals, and species rows summing to the total', () => {
    fc.assert(
      fc.property(collections, (cs) => {
        const total = abundanceReport(cs, { sex: 'all' }).rows;
        const bySpecies = abundanceReport(cs, { sex: 'all', separate_by: ['species'] }).rows;
        for (const r of total) {
          expect(Math.abs(r.Count / r.TrapEvents - r.Abundance)).toBeLessThanOrEqual(
            0.00005 + 1e-12,
          );
          const parts = bySpecies.filter((s) => s.Year === r.Year && s.Week === r.Week);
          expect(parts.reduce((n, s) => n + s.Count, 0)).toBe(r.Count);
          expect(parts.every((s) => s.TrapEvents === r.TrapEvents)).toBe(true);
        }
      }),
    );
  });

  it('sorts rows by Year, interval, then labels', () => {
    fc.assert(
      fc.property(collections, (cs) => {
        const rows = abundanceReport(cs, { separate_by: ['trap', 'species'] }).rows;
        const keys = rows.map((r) => [r.Year, r.Week, r.Species ?? '\uffff', r.Trap] as const);
        const sorted = [...keys].sort(
          (a, b) =>
            (a[0] as number) - (b[0] as number) ||
            (a[1] as number) - (b[1] as number) ||
            (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0) ||
            (a[3]! < b[3]! ? -1 : a[3]! > b[3]! ? 1 : 0),
        );
        expect(keys).toEqual(sorted);
      }),
    );
  });

  const pool = fc
    .record({
      day: fc.integer({ min: 0, max: 60 }),
      count: fc.integer({ min: 1, max: 50 }),
      tests: fc.array(
        fc.constantFrom<'Confirmed' | 'Negative' | 'Pending'>('Confirmed', 'Negative', 'Pending'),
        { minLength: 1, maxLength: 2 },
      ),
    })
    .map((p) =>
      makePool({
        ...p,
        date: new Date(Date.UTC(2025, 6, 1) + p.day * 86_400_000).toISOString().slice(0, 10),
      }),
    );

  it('keeps every report interval around its rate, and MIR 0 exactly when no pool is positive', () => {
    fc.assert(
      fc.property(fc.array(pool, { minLength: 1, maxLength: 40 }), (ps) => {
        const mirRows = infectionRateReport(ps, { pt_estimate: 'mir' }).rows;
        const mleRows = infectionRateReport(ps, { pt_estimate: 'mle' }).rows;
        for (const [i, r] of mirRows.entries()) {
          const rate = r.InfectionRate!;
          expect(r.LowerCI!).toBeLessThanOrEqual(rate);
          expect(rate).toBeLessThanOrEqual(r.UpperCI!);
          const m = mleRows[i];
          expect(rate === 0).toBe(m.InfectionRate === 0); // no positive pool: both 0
          if (m.InfectionRate !== null) {
            expect(m.LowerCI!).toBeLessThanOrEqual(m.InfectionRate);
            expect(m.InfectionRate).toBeLessThanOrEqual(m.UpperCI!);
            expect(m.UpperCI!).toBeLessThanOrEqual(1000);
          }
        }
      }),
    );
  });
});
