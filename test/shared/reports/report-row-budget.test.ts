import { describe, expect, it } from 'vitest';
import {
  abundanceAnomalyReport,
  abundanceReport,
  infectionRateReport,
  ReportRowBudgetExceeded,
  vectorIndexReport,
} from '#shared/reports';
import { makeCollection, makePool } from './factories';

/** Ten dates × two traps: 20 groups with trap events. */
const collections = Array.from({ length: 10 }, (_, d) =>
  ['CO2', 'GRVD'].map((trap) =>
    makeCollection({
      date: `2026-07-${String(d + 1).padStart(2, '0')}`,
      trap,
      catch: [{ species: 'Cx tarsalis', count: 3 }],
    }),
  ),
).flat();
const pools = collections.map((c) =>
  makePool({
    date: c.collection_date!.slice(0, 10),
    trap: c.trap?.acronym,
    count: 10,
    tests: ['Negative'],
  }),
);
const byDateAndTrap = {
  year: [2026],
  interval: 'CollectionDate',
  separate_by: ['trap', 'species'],
} as const;

const thrown = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err;
  }
  return null;
};

describe('the row budget', () => {
  it('refuses, before building them, the groups × species asked for beyond it', () => {
    const species = ['Cx tarsalis', 'Cx pipiens', 'made up'];
    const err = thrown(() =>
      abundanceReport(collections, { ...byDateAndTrap, species, rowBudget: 59 }),
    );
    expect(err).toBeInstanceOf(ReportRowBudgetExceeded);
    expect(err).toMatchObject({ rows: 60, budget: 59 });
    // At the budget: every row.
    expect(
      abundanceReport(collections, { ...byDateAndTrap, species, rowBudget: 60 }).rows,
    ).toHaveLength(60);
    // No budget: no limit (the shared module's callers in the app).
    expect(abundanceReport(collections, { ...byDateAndTrap, species }).rows).toHaveLength(60);
  });

  it('holds for every report', () => {
    const budget = { ...byDateAndTrap, rowBudget: 19 };
    expect(thrown(() => infectionRateReport(pools, budget))).toBeInstanceOf(
      ReportRowBudgetExceeded,
    );
    expect(thrown(() => vectorIndexReport(collections, pools, budget))).toBeInstanceOf(
      ReportRowBudgetExceeded,
    );
    expect(
      thrown(() =>
        abundanceAnomalyReport(collections, { ...byDateAndTrap, target_year: 2026, rowBudget: 19 }),
      ),
    ).toBeInstanceOf(ReportRowBudgetExceeded);
    expect(infectionRateReport(pools, { ...budget, rowBudget: 20 }).rows).toHaveLength(20);
  });
});
