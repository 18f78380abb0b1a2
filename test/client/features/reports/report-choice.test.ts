import { describe, expect, it } from 'vitest';
import {
  choiceFromSearch,
  choiceToSearch,
  defaultChoice,
  reportQuery,
  searchOfQuery,
  type ReportChoice,
} from '../../../../src/client/features/reports/report-choice';

const season = 2026;

describe('report choice', () => {
  it('defaults to this season’s weekly anomaly, a line per species', () => {
    const c = choiceFromSearch(new URLSearchParams(), season);
    expect(c).toEqual(defaultChoice(season));
    expect(reportQuery(c)).toBe('target_year=2026&interval=Week&separate_by=species');
  });

  it('sends each report only the parameters it takes (the BFF refuses others with 422)', () => {
    const base: ReportChoice = {
      ...defaultChoice(season),
      years: [2026, 2024],
      species: ['Cx tarsalis'],
      traps: ['CO2'],
      estimator: 'mir',
    };
    expect(reportQuery({ ...base, report: 'abundance-anomaly' })).toBe(
      'target_year=2026&interval=Week&species=Cx+tarsalis&trap=CO2&separate_by=species',
    );
    expect(reportQuery({ ...base, report: 'abundance' })).toBe(
      'year=2024&year=2026&interval=Week&species=Cx+tarsalis&trap=CO2&separate_by=species',
    );
    expect(reportQuery({ ...base, report: 'infection-rate', bySpecies: false })).toBe(
      'year=2024&year=2026&interval=Week&species=Cx+tarsalis&trap=CO2&target_disease=WNV&pt_estimate=mir',
    );
  });

  it('gives equal queries for equal choices picked in another order (one cached result)', () => {
    const a = { ...defaultChoice(season), species: ['Cx pipiens', 'Cx tarsalis'], years: [2025] };
    const b = { ...defaultChoice(season), species: ['Cx tarsalis', 'Cx pipiens'], years: [2025] };
    expect(reportQuery(a)).toBe(reportQuery(b));
  });

  it('survives a reload through the URL, and a kept report opens with its own choice', () => {
    const c: ReportChoice = {
      report: 'vector-index',
      years: [2026, 2025],
      interval: 'Biweek',
      species: ['Cx tarsalis'],
      traps: ['GRVD', 'CO2'],
      bySpecies: false,
      target: 'SLEV',
      estimator: 'mle',
    };
    expect(choiceFromSearch(choiceToSearch(c), season)).toEqual(c);
    const again = choiceFromSearch(searchOfQuery(c.report, reportQuery(c)), season);
    expect(reportQuery(again)).toBe(reportQuery(c));
  });

  it('falls back to defaults for unknown words, and leaves a year’s range to the server', () => {
    const c = choiceFromSearch(
      new URLSearchParams('report=nope&interval=Fortnight&year=2300&year=abc&pt_estimate=x'),
      season,
    );
    expect(c.report).toBe('abundance-anomaly');
    expect(c.interval).toBe('Week');
    expect(c.years).toEqual([2300]);
    expect(c.estimator).toBe('bc-mle');
  });
});
