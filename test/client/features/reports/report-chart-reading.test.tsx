import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { chartSeries } from '../../../../src/client/features/reports/chart-series';
import ReportChart from '../../../../src/client/features/reports/report-chart';

/** The agency's mosquito species in lookup order (the seeded lookups' first ones). */
const SPECIES_ORDER = ['Cx tarsalis', 'Cx pipiens', 'Cx quinquefasciatus', 'Ae aegypti'];

/** Texts drawn in the chart's SVG (axis titles and tick labels). */
const svgTexts = () =>
  [...screen.getByTestId('report-chart').querySelectorAll('text')].map((t) => t.textContent);

/**
 * Issue 35, item 7: the vector index was drawn 1000× the CDC figure with no unit, so a peak of
 * 369 read as an emergency to a manager used to CDC thresholds near 0.5, where the CDC figure
 * was 0.44.
 */
describe('vector index chart', () => {
  const rows = [
    {
      Year: 2026,
      Week: 44,
      Species: 'Cx tarsalis',
      Abundance: 14.3333,
      InfectionRate: 25.7692,
      VectorIndex: 369.3584,
      CDCVectorIndex: 0.4412,
    },
    {
      Year: 2026,
      Week: 44,
      Species: 'Cx pipiens',
      Abundance: 3.3333,
      InfectionRate: 21.6,
      VectorIndex: 71.9993,
      CDCVectorIndex: 0.4412,
    },
    {
      Year: 2026,
      Week: 45,
      Species: 'Cx tarsalis',
      Abundance: 5,
      InfectionRate: 10,
      VectorIndex: 50,
      CDCVectorIndex: 0.05,
    },
  ];

  it('names the unit on the axis and reads the CDC figure on a second axis beside it', () => {
    const data = chartSeries('vector-index', rows, 'Week', SPECIES_ORDER);
    render(<ReportChart data={data} interval="Week" />);
    const texts = svgTexts();
    expect(texts).toContain('Vector index per 1,000');
    expect(texts).toContain('CDC vector index');
    // A grid line at 400 per 1,000 reads 0.4 on the CDC axis, the scale managers' thresholds use.
    expect(texts).toContain('400');
    expect(texts).toContain('0.4');
    // The CDC sum over species is drawn too, and named in the legend.
    const legend = screen.getByRole('list');
    expect(within(legend).getByText('CDC vector index, all species')).toBeInTheDocument();
    expect(screen.getByTestId('report-chart')).toHaveAccessibleName(
      'Vector index per 1,000 by week, 2 lines; highest 369.36 (Cx tarsalis, week 44), ' +
        'CDC vector index, all species, highest 0.44 (week 44). The table below lists every figure.',
    );
  });
});

describe('chart styles and periods', () => {
  it('keeps a species’ colour and mark from one report to the next', () => {
    const week = (Species: string, Abundance: number) => ({
      Year: 2026,
      Week: 30,
      Species,
      Abundance,
    });
    const first = chartSeries(
      'abundance',
      [week('Cx tarsalis', 9), week('Cx pipiens', 3)],
      'Week',
      SPECIES_ORDER,
    );
    // Another report, where Cx pipiens is the biggest and another species comes in.
    const second = chartSeries(
      'abundance',
      [week('Cx pipiens', 12), week('Ae aegypti', 1), week('Cx quinquefasciatus', 5)],
      'Week',
      SPECIES_ORDER,
    );
    const style = (data: typeof first, name: string) => {
      const s = data.series.find((x) => x.name === name)!;
      return { stroke: s.stroke, marker: s.marker };
    };
    expect(style(second, 'Cx pipiens')).toEqual(style(first, 'Cx pipiens'));
    // Every species drawn in one chart looks different from the others.
    const looks = second.series.map((s) => `${s.stroke} ${s.marker}`);
    expect(new Set(looks).size).toBe(looks.length);
    expect(style(first, 'Cx tarsalis')).not.toEqual(style(first, 'Cx pipiens'));
  });

  it('draws two seasons of one species in its colour, the older one dashed', () => {
    const rows = [
      { Year: 2025, Week: 30, Species: 'Cx tarsalis', Abundance: 4 },
      { Year: 2026, Week: 30, Species: 'Cx tarsalis', Abundance: 9 },
    ];
    const data = chartSeries('abundance', rows, 'Week', SPECIES_ORDER);
    const byName = Object.fromEntries(data.series.map((s) => [s.name, s]));
    expect(byName['Cx tarsalis · 2025'].stroke).toBe(byName['Cx tarsalis · 2026'].stroke);
    expect(byName['Cx tarsalis · 2026'].dash).toBeUndefined();
    expect(byName['Cx tarsalis · 2025'].dash).toBeDefined();
  });

  it('labels two-week periods by their MMWR weeks on the axis', () => {
    const rows = [
      { Year: 2026, Biweek: 22, Abundance: 2 },
      { Year: 2026, Biweek: 23, Abundance: 3 },
    ];
    const data = chartSeries('abundance', rows, 'Biweek', SPECIES_ORDER);
    expect(data.categories).toEqual(['43–44', '45–46']);
    render(<ReportChart data={data} interval="Biweek" />);
    expect(svgTexts()).toEqual(expect.arrayContaining(['43–44', '45–46', 'MMWR weeks']));
    expect(svgTexts()).toContain('Mosquitoes per trap night');
  });
});
