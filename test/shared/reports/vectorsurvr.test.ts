import { describe, expect, it } from 'vitest';
import {
  abundanceAnomalyReport,
  abundanceReport,
  infectionRateReport,
  vectorIndexReport,
  type Cell,
  type Report,
} from '#shared/reports';
import reference from './vectorsurvr/reference.json';
import { sampleData } from './vectorsurvr/sample-data';

/**
 * Every report against vectorsurvR 1.6.3 itself: reference.json holds what its own R functions
 * (sourced unchanged, R 4.2.2) computed on the same records (vectorsurvr/sample-data.ts,
 * flattened by write-csv.ts, run by vectorsurvr-reference.R). Rounded figures and counts must
 * be the same doubles; the others within 1e-6 (spec).
 */
const { collections, pools } = sampleData();

const cases: Record<string, () => Report> = {
  ab_week: () => abundanceReport(collections, { interval: 'Week' }),
  ab_week_species: () =>
    abundanceReport(collections, { interval: 'Week', separate_by: ['species'] }),
  ab_biweek_trap_agency: () =>
    abundanceReport(collections, { interval: 'Biweek', separate_by: ['trap', 'agency'] }),
  ab_month_listed_species: () =>
    abundanceReport(collections, {
      interval: 'Month',
      species: ['Cx pipiens', 'Cx tarsalis', 'Cs inornata'],
      separate_by: ['species'],
    }),
  ab_date_all_sexes_one_night: () =>
    abundanceReport(collections, { interval: 'CollectionDate', sex: 'all', trapnight_max: 1 }),
  ab_week_males_grvd: () =>
    abundanceReport(collections, {
      interval: 'Week',
      sex: 'male',
      trap: ['GRVD'],
      agency: ['SAYO'],
      trapnight_min: 2,
    }),
  an_week: () => abundanceAnomalyReport(collections, { interval: 'Week', target_year: 2025 }),
  an_biweek_species: () =>
    abundanceAnomalyReport(collections, {
      interval: 'Biweek',
      target_year: 2025,
      separate_by: ['species'],
    }),
  an_month_2023_trap: () =>
    abundanceAnomalyReport(collections, {
      interval: 'Month',
      target_year: 2023,
      separate_by: ['trap'],
    }),
  an_date: () =>
    abundanceAnomalyReport(collections, { interval: 'CollectionDate', target_year: 2025 }),
  ir_week_bcmle: () => infectionRateReport(pools, { interval: 'Week', target_disease: 'WNV' }),
  ir_month_mle_species: () =>
    infectionRateReport(pools, { interval: 'Month', pt_estimate: 'mle', separate_by: ['species'] }),
  ir_biweek_mir_trap_agency: () =>
    infectionRateReport(pools, {
      interval: 'Biweek',
      pt_estimate: 'mir',
      separate_by: ['trap', 'agency'],
    }),
  ir_month_slev_all_sexes: () =>
    infectionRateReport(pools, { interval: 'Month', target_disease: 'SLEV', sex: 'all' }),
  ir_date_scale1: () => infectionRateReport(pools, { interval: 'CollectionDate', scale: 1 }),
  vi_week_species: () =>
    vectorIndexReport(collections, pools, { interval: 'Week', separate_by: ['species'] }),
  vi_month_mle: () =>
    vectorIndexReport(collections, pools, { interval: 'Month', pt_estimate: 'mle' }),
};

const KEYS = ['Year', 'Week', 'Biweek', 'Month', 'CollectionDate', 'Species', 'Trap', 'Agency'];
const EXACT = ['Count', 'TrapEvents', 'Abundance', 'YearsInAverage', 'Delta'];

/** R's text back to the cell the report gives: numbers as numbers, labels and dates as text. */
function fromR(column: string, v: string | null): Cell {
  if (v === null) return null;
  if (['CollectionDate', 'Species', 'Trap', 'Agency', 'YearsInAverage'].includes(column)) return v;
  return Number(v);
}

const referenceCases = reference as Record<
  string,
  { columns: string[]; rows: (string | null)[][] }
>;

describe('the reports equal vectorsurvR 1.6.3 on the same records', () => {
  it('covers every reference case', () => {
    expect(Object.keys(cases).sort()).toEqual(Object.keys(referenceCases).sort());
  });

  for (const [name, run] of Object.entries(cases)) {
    it(name, () => {
      const ref = referenceCases[name];
      const ours = run();
      for (const c of ref.columns) expect(ours.columns).toContain(c);
      expect(ours.rows.length).toBe(ref.rows.length);
      const keyColumns = ref.columns.filter((c) => KEYS.includes(c));
      const key = (cells: Cell[]) => JSON.stringify(cells);
      const byKey = new Map(ours.rows.map((r) => [key(keyColumns.map((c) => r[c])), r]));
      let largestGap = 0;
      for (const values of ref.rows) {
        const expected = Object.fromEntries(ref.columns.map((c, i) => [c, fromR(c, values[i])]));
        const row = byKey.get(key(keyColumns.map((c) => expected[c])));
        expect(row, `row ${key(keyColumns.map((c) => expected[c]))}`).toBeDefined();
        for (const c of ref.columns.filter((c) => !KEYS.includes(c))) {
          const want = expected[c];
          const got = row![c];
          if (want === null || EXACT.includes(c) || typeof want !== 'number') {
            expect(got === want || (got === 0 && want === 0), `${c}: ${got} vs R ${want}`).toBe(
              true,
            );
          } else {
            expect(typeof got, `${c} of ${key(keyColumns.map((k) => expected[k]))}`).toBe('number');
            largestGap = Math.max(largestGap, Math.abs((got as number) - want));
          }
        }
      }
      expect(largestGap).toBeLessThanOrEqual(1e-6);
    });
  }
});
