import { describe, expect, it } from 'vitest';
import {
  chartSeries,
  chartSummary,
  MAX_GROUPS,
} from '../../../../src/client/features/reports/chart-series';

describe('chart series', () => {
  it('draws each species and its five-year average (dashed) on the weeks of the report', () => {
    const rows = [
      { Year: 2026, Week: 27, Species: 'Cx pipiens', Abundance: 3.3333, FiveYearAvg: 1 },
      { Year: 2026, Week: 27, Species: 'Cx tarsalis', Abundance: 12.6667, FiveYearAvg: 15 },
      { Year: 2026, Week: 28, Species: 'Cx tarsalis', Abundance: 12, FiveYearAvg: null },
    ];
    const data = chartSeries('abundance-anomaly', rows, 'Week', ['Cx tarsalis', 'Cx pipiens']);
    expect(data.categories).toEqual(['27', '28']);
    // Each average is drawn in its species' colour.
    expect(data.series.map((s) => [s.name, s.role, s.stroke])).toEqual([
      ['Cx tarsalis', 'main', '#0072B2'],
      ['Cx tarsalis, five-year average', 'average', '#0072B2'],
      ['Cx pipiens', 'main', '#C24E00'],
      ['Cx pipiens, five-year average', 'average', '#C24E00'],
    ]);
    expect(data.series[0].points).toEqual([{ y: 12.6667 }, { y: 12 }]);
    expect(data.series[3].points).toEqual([{ y: 1 }, null]);
    expect(chartSummary(data, 'Week')).toBe(
      'Mosquitoes per trap night by week, 2 lines; highest 12.67 (Cx tarsalis, week 27). The table below lists every figure.',
    );
  });

  it('lines up several seasons by month and day, one line per season', () => {
    const rows = [
      { Year: 2025, CollectionDate: '2025-07-08', InfectionRate: 2, LowerCI: 0, UpperCI: 5 },
      { Year: 2026, CollectionDate: '2026-07-08', InfectionRate: 4, LowerCI: 1, UpperCI: 9 },
      {
        Year: 2026,
        CollectionDate: '2026-06-30',
        InfectionRate: null,
        LowerCI: null,
        UpperCI: null,
      },
    ];
    const data = chartSeries('infection-rate', rows, 'CollectionDate', []);
    expect(data.categories).toEqual(['Jun 30', 'Jul 8']);
    expect(data.series.map((s) => s.name)).toEqual(['2026', '2025']);
    expect(data.series[0].points).toEqual([null, { y: 4, lo: 1, hi: 9 }]);
  });

  it('keeps the chart readable: the biggest groups are drawn, the rest counted', () => {
    const rows = Array.from({ length: MAX_GROUPS + 2 }, (_, i) => ({
      Year: 2026,
      Month: 7,
      Species: `Species ${i}`,
      Abundance: i,
    }));
    const data = chartSeries('abundance', rows, 'Month', []);
    expect(data.categories).toEqual(['Jul']);
    expect(data.series).toHaveLength(MAX_GROUPS);
    expect(data.series[0].name).toBe(`Species ${MAX_GROUPS + 1}`);
    expect(data.hidden).toBe(2);
  });
});
