import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ReportTable } from '../../../../src/client/features/reports/report-table';

/** The table's header cells and its first row's cells, as text. */
function readTable() {
  const [head, first] = screen.getAllByRole('row');
  return {
    head: within(head)
      .getAllByRole('columnheader')
      .map((c) => c.textContent),
    cells: within(first)
      .getAllByRole('cell')
      .map((c) => c.textContent),
  };
}

/**
 * What a manager reads off the table (issue 35, item 7 and the Reports minor items): figures
 * with their units, rounded as a person writes them, and periods labelled on one scale.
 */
describe('report table as a manager reads it', () => {
  it('says the vector index is per 1,000 and puts the CDC figure, per trap night, beside it', () => {
    render(
      <ReportTable
        caption="Vector index"
        rows={[
          {
            Year: 2026,
            Week: 44,
            Species: 'Cx tarsalis',
            Count: 43,
            TrapEvents: 3,
            Abundance: 14.3333,
            InfectionRate: 25.7692,
            LowerCI: 0,
            UpperCI: 77.2106,
            VectorIndex: 369.3584,
            CDCVectorIndex: 0.4412,
          },
        ]}
      />,
    );
    const { head, cells } = readTable();
    expect(head).toEqual([
      'Year',
      'MMWR week',
      'Species',
      'Count',
      'Trap nights',
      'Per trap night',
      'Infection rate per 1,000',
      '95% CI per 1,000',
      'Vector index per 1,000',
      'CDC vector index, all species',
    ]);
    expect(cells).toEqual([
      '2026',
      '44',
      'Cx tarsalis',
      '43',
      '3',
      '14.33',
      '25.77',
      '0–77.21',
      '369.36',
      '0.44',
    ]);
  });

  it('rounds figures to two decimals and a change to whole percent, signed', () => {
    render(
      <ReportTable
        caption="Abundance against the five-year average"
        rows={[
          {
            Year: 2026,
            Week: 27,
            Species: 'Cx tarsalis',
            Count: 469,
            TrapEvents: 13,
            Abundance: 36.0769,
            FiveYearAvg: 15,
            YearsInAverage: '2024,2025',
            Delta: 140.51,
          },
        ]}
      />,
    );
    expect(readTable().cells).toEqual([
      '2026',
      '27',
      'Cx tarsalis',
      '469',
      '13',
      '36.08',
      '15',
      '2024, 2025',
      '+141',
    ]);
  });

  it('labels a two-week period by its MMWR weeks, as the weekly view numbers them', () => {
    render(
      <ReportTable
        caption="Abundance"
        rows={[{ Year: 2026, Biweek: 22, Count: 10, TrapEvents: 4, Abundance: 2.5 }]}
      />,
    );
    const { head, cells } = readTable();
    expect(head[1]).toBe('MMWR weeks');
    expect(cells[1]).toBe('43–44');
  });
});
