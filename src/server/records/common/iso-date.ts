/** Output form of every date (contract §3): `YYYY-MM-DDTHH:mm:ss.sssZ`, or null when unset. */
export function isoDate(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const d = value instanceof Date ? value : new Date(String(value));
  return d.toISOString();
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether an input date names a day only (`2026-07-14`) rather than a moment. */
export function isDateOnly(input: string): boolean {
  return DATE_ONLY.test(input);
}
