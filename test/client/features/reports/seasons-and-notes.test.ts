import { describe, expect, it } from 'vitest';
import { anomalyNote } from '../../../../src/client/features/reports/anomaly-note';
import {
  offeredSeasons,
  seasonsWithData,
} from '../../../../src/client/features/reports/seasons-with-data';

describe('seasons offered', () => {
  it('offers only the seasons whose trap collections the server counted, newest first', () => {
    const found = seasonsWithData(
      [
        { Year: 2024, Month: 7, TrapEvents: 3 },
        { Year: 2026, Month: 6, TrapEvents: 1 },
        { Year: 2026, Month: 7, TrapEvents: 2 },
      ],
      2017,
    );
    expect(found).toEqual({ years: [2026, 2024], from: 2017 });
    expect(offeredSeasons(found, [2026], 2026)).toEqual([2026, 2024]);
  });

  it('keeps a season that is chosen even without data, so it can be unticked', () => {
    expect(offeredSeasons({ years: [2024], from: 2017 }, [2026], 2026)).toEqual([2026, 2024]);
  });

  it('offers the current season alone (and what is chosen) until the seasons are known', () => {
    expect(offeredSeasons(undefined, [2023], 2026)).toEqual([2026, 2023]);
  });
});

describe('why the five-year average is empty', () => {
  const row = (Week: number, FiveYearAvg: number | null) => ({
    Year: 2026,
    Week,
    Abundance: 3,
    FiveYearAvg,
    YearsInAverage: FiveYearAvg === null ? null : '2025',
    Delta: FiveYearAvg === null ? null : 10,
  });

  it('says there are no earlier seasons when the district has none', () => {
    const note = anomalyNote([row(27, null), row(28, null)], 2026, 'Week', {
      years: [2026],
      from: 2017,
    });
    expect(note).toBe(
      'No earlier season (2017–2025) has trap collections, so there is no five-year average to compare ' +
        'with yet: the average and change columns show “—”. The average appears once an ' +
        'earlier season has data.',
    );
  });

  it('names the earlier seasons when they trapped in other weeks only', () => {
    const note = anomalyNote([row(27, null)], 2026, 'Week', { years: [2026, 2024], from: 2017 });
    expect(note).toBe(
      'The earlier seasons (2024) have no trap collections in these weeks, so there is no ' +
        'average to compare with: “—”.',
    );
  });

  it('explains a dash in some rows, and says nothing when every row has its average', () => {
    expect(anomalyNote([row(27, 15), row(28, null)], 2026, 'Week', undefined)).toBe(
      '“—”: no earlier season has trap collections in that week, so there is nothing to ' +
        'compare with.',
    );
    expect(anomalyNote([row(27, 15)], 2026, 'Week', undefined)).toBeNull();
  });
});
