import type { ReportCollection, ReportPool } from '#shared/reports';

/**
 * A deterministic agency history for comparing with vectorsurvR (seeded, so the R script and
 * the tests see the same records): 2019–2025, two agencies, two trap types, three species plus
 * collections with no abundance rows, female conditions, males and 'other', trap problems,
 * 0 trap nights, dates at the year boundaries (31 December in week 1, early January in week 53
 * or 52 of the year before), pools tested once, twice or not at all, for WNV and SLEV, with
 * Confirmed, Negative and Pending results, and groups whose every pool is positive.
 */
export const AGENCIES = ['SAYO', 'SLCM'] as const;
export const TRAPS = ['CO2', 'GRVD'] as const;
export const SPECIES = ['Cx pipiens', 'Cx tarsalis', 'Ae vexans'] as const;
export const YEARS = [2019, 2020, 2021, 2022, 2023, 2024, 2025] as const;

function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sexes = [
  { id: 1, name: 'F-Mixed', type: 'female' },
  { id: 2, name: 'F-Gravid', type: 'female' },
  { id: 3, name: 'Male', type: 'male' },
  { id: 4, name: 'Other', type: 'other' },
];
const speciesRecords = SPECIES.map((s, i) => ({
  id: i + 1,
  full_name: `${s} (full)`,
  display_name: s,
  type: 'mosquito',
}));
const agencyRecords = AGENCIES.map((code, i) => ({ id: 55 + i, code, name: `${code} district` }));
const trapRecords = TRAPS.map((acronym, i) => ({ id: 10 + i, acronym, name: `${acronym} trap` }));
const statuses = {
  Confirmed: { id: 1, name: 'Confirmed' },
  Negative: { id: 2, name: 'Negative' },
  Pending: { id: 3, name: 'Pending' },
};
const targets = {
  WNV: { id: 1, acronym: 'WNV', name: 'West Nile virus' },
  SLEV: { id: 2, acronym: 'SLEV', name: 'St. Louis encephalitis virus' },
};

const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString(); // the service's output form

export function sampleData(): { collections: ReportCollection[]; pools: ReportPool[] } {
  const rnd = mulberry32(20251123);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const collections: ReportCollection[] = [];
  const pools: ReportPool[] = [];
  let collectionId = 1000;
  let poolId = 5000;
  let testId = 9000;

  for (const year of YEARS) {
    const dates: string[] = [];
    for (let i = 0; i < 34; i++) dates.push(iso(year, int(4, 10), int(1, 28)));
    // Year boundaries: surv_year is the season, whatever the MMWR week says.
    dates.push(iso(year, 12, 30), iso(year, 12, 31), iso(year, 1, 2), iso(year, 1, 3));
    for (const date of dates) {
      const problem = rnd() < 0.06;
      const nights = rnd() < 0.04 ? 0 : int(1, 3);
      const rows = rnd() < 0.12 ? 0 : int(1, 4);
      const arthropods = [];
      const used = new Set<string>();
      for (let r = 0; r < rows; r++) {
        const species = pick(speciesRecords);
        const sex = rnd() < 0.75 ? sexes[int(0, 1)] : pick(sexes.slice(2));
        if (used.has(`${species.id}:${sex.id}`)) continue;
        used.add(`${species.id}:${sex.id}`);
        arthropods.push({ species, sex, num_count: rnd() < 0.1 ? 0 : int(1, 400) });
      }
      collections.push({
        id: collectionId++,
        collection_date: date,
        num_trap: int(1, 2),
        trap: pick(trapRecords),
        trap_nights: nights,
        trap_problem_bit: problem,
        surv_year: year,
        agency: pick(agencyRecords),
        arthropods,
      } as ReportCollection);
    }

    for (let i = 0; i < 40; i++) {
      const tests = [];
      const nTests = rnd() < 0.05 ? 0 : rnd() < 0.12 ? 2 : 1;
      for (let t = 0; t < nTests; t++) {
        const u = rnd();
        const status =
          u < 0.18 ? statuses.Confirmed : u < 0.28 ? statuses.Pending : statuses.Negative;
        tests.push({
          id: testId++,
          test_date: iso(year, 9, 1),
          method: 1,
          target: rnd() < 0.85 ? targets.WNV : targets.SLEV,
          status,
        });
      }
      pools.push({
        id: poolId++,
        num_count: int(1, 50),
        species: pick(speciesRecords),
        sex: rnd() < 0.85 ? sexes[int(0, 1)] : sexes[2],
        trap: pick(trapRecords),
        agency: pick(agencyRecords),
        collection_date: iso(year, int(6, 9), int(1, 28)),
        surv_year: year,
        test: tests,
      } as ReportPool);
    }
    // A week of one positive pool (every pool positive: MLE null) and one at a year boundary.
    for (const [m, d] of [
      [11, 20],
      [12, 31],
    ]) {
      pools.push({
        id: poolId++,
        num_count: int(5, 40),
        species: speciesRecords[0],
        sex: sexes[0],
        trap: trapRecords[0],
        agency: agencyRecords[0],
        collection_date: iso(year, m, d),
        surv_year: year,
        test: [
          {
            id: testId++,
            test_date: iso(year, 12, 1),
            method: 1,
            target: targets.WNV,
            status: statuses.Confirmed,
          },
        ],
      } as ReportPool);
    }
  }
  return { collections, pools };
}
