const DAY_MS = 86_400_000;
const YMD = /^(\d{4})-(\d{2})-(\d{2})/;

/**
 * The MMWR epidemiological week of a date, as lubridate's `epiweek` computes it: weeks start on
 * Sunday, and week 1 is the first week with at least four days in the new year. The week is the
 * one holding that week's Wednesday: 1 + whole weeks from 1 January of the Wednesday's year to
 * the Wednesday (lubridate `.other_week(x, 7)`). So 31 December can be week 1 (2024-12-31) and
 * 1 January week 52 or 53 (2021-01-01 is week 53). Only the leading `YYYY-MM-DD` is read; null
 * when there is none.
 */
export function mmwrWeek(date: string): number | null {
  const m = YMD.exec(date);
  if (!m) return null;
  const day = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const weekday = new Date(day).getUTCDay(); // 0 = Sunday
  const wednesday = new Date(day + (3 - weekday) * DAY_MS);
  const jan1 = Date.UTC(wednesday.getUTCFullYear(), 0, 1);
  return 1 + Math.floor((wednesday.getTime() - jan1) / DAY_MS / 7);
}
