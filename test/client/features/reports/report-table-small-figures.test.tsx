import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ReportTable } from '../../../../src/client/features/reports/report-table';

/**
 * The table is the figures a district acts on: a positive figure too small for four decimals
 * (an early-season CDC vector index, a low infection rate's lower bound) must not read as 0,
 * which would say "no virus" where a pool was positive.
 */
describe('report table figures', () => {
  it('shows a small positive figure with its significant digits, never as 0', () => {
    render(
      <ReportTable
        caption="Vector index"
        rows={[
          {
            Year: 2026,
            Week: 22,
            Species: 'Cx tarsalis',
            Abundance: 0.1,
            InfectionRate: 0.2345,
            VectorIndex: 0.02345,
            CDCVectorIndex: 0.00002345,
          },
        ]}
      />,
    );
    const cells = within(screen.getAllByRole('row')[1]).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual([
      '2026',
      '22',
      'Cx tarsalis',
      '0.1',
      '0.23',
      '0.023',
      '0.000023',
    ]);
  });

  it('still shows an exact 0 as 0, and large figures grouped', () => {
    render(
      <ReportTable
        caption="Abundance"
        rows={[{ Year: 2026, Week: 22, Count: 1234567, TrapEvents: 3, Abundance: 0 }]}
      />,
    );
    const cells = within(screen.getAllByRole('row')[1]).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual(['2026', '22', '1,234,567', '3', '0']);
  });
});
