import { describe, expect, it } from 'vitest';
import { chartSeries } from '../../../../src/client/features/reports/chart-series';

/**
 * A season (surv_year) can hold collections of the next calendar year (a trap picked up on
 * 2 January counted in the season before). By collection date, the chart keeps each such date
 * after the season's own dates, and never draws it on the point of the same month and day of
 * the season's first January.
 */
describe('chart by collection date across the new year', () => {
  it('keeps a season’s January of the next year apart from its own January, in season order', () => {
    const rows = [
      { Year: 2025, CollectionDate: '2025-01-02', Abundance: 1 },
      { Year: 2025, CollectionDate: '2025-07-08', Abundance: 2 },
      { Year: 2025, CollectionDate: '2026-01-02', Abundance: 3 },
    ];
    const data = chartSeries('abundance', rows, 'CollectionDate', []);
    expect(data.categories).toEqual(['Jan 2', 'Jul 8', 'Jan 2, next year']);
    expect(data.series).toHaveLength(1);
    expect(data.series[0].points).toEqual([{ y: 1 }, { y: 2 }, { y: 3 }]);
  });

  it('still lines several seasons up by month and day within each season', () => {
    const rows = [
      { Year: 2024, CollectionDate: '2024-07-08', Abundance: 1 },
      { Year: 2024, CollectionDate: '2025-01-02', Abundance: 4 },
      { Year: 2025, CollectionDate: '2025-07-08', Abundance: 2 },
      { Year: 2025, CollectionDate: '2026-01-02', Abundance: 3 },
    ];
    const data = chartSeries('abundance', rows, 'CollectionDate', []);
    expect(data.categories).toEqual(['Jul 8', 'Jan 2, next year']);
    expect(Object.fromEntries(data.series.map((s) => [s.name, s.points]))).toEqual({
      '2024': [{ y: 1 }, { y: 4 }],
      '2025': [{ y: 2 }, { y: 3 }],
    });
  });
});
