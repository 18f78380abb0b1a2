import { describe, expect, it } from 'vitest';
import { intervalOf, mmwrWeek } from '#shared/reports';

describe('mmwrWeek is lubridate::epiweek (values printed by R 4.2.2, lubridate 1.9.2)', () => {
  it('puts the year boundaries where MMWR does', () => {
    expect(mmwrWeek('2024-12-31')).toBe(1); // Tuesday; its week's Wednesday is 2025-01-01
    expect(mmwrWeek('2021-01-01')).toBe(53); // Friday in MMWR week 53 of 2020
    expect(mmwrWeek('2022-01-01')).toBe(52); // Saturday in week 52 of 2021
    expect(mmwrWeek('2026-01-01')).toBe(53); // Thursday: 2025 has 53 MMWR weeks
    expect(mmwrWeek('2023-01-01')).toBe(1); // Sunday starting week 1
    expect(mmwrWeek('2020-12-31')).toBe(53);
    expect(mmwrWeek('2019-12-29')).toBe(1); // Sunday; Wednesday 2020-01-01
  });

  it('starts weeks on Sunday', () => {
    // 2026-07-11 is a Saturday, 2026-07-12 the Sunday after: week 27 then 28.
    expect(mmwrWeek('2026-07-11')).toBe(27);
    expect(mmwrWeek('2026-07-12')).toBe(28);
  });

  it("reads only the listed date's YYYY-MM-DD", () => {
    expect(mmwrWeek('2024-12-31T23:30:00.000Z')).toBe(1);
    expect(mmwrWeek('not a date')).toBeNull();
  });

  it('gives Biweek, Month and CollectionDate from the same date', () => {
    expect(intervalOf('2021-01-01T00:00:00.000Z', 'Biweek')).toBe(27); // ceiling(53 / 2)
    expect(intervalOf('2026-07-12T00:00:00.000Z', 'Biweek')).toBe(14);
    expect(intervalOf('2026-07-12T00:00:00.000Z', 'Month')).toBe(7);
    expect(intervalOf('2026-07-12T00:00:00.000Z', 'CollectionDate')).toBe('2026-07-12');
    expect(intervalOf(null, 'Week')).toBeNull();
  });
});
