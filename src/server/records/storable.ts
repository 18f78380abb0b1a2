import type { FieldError } from '#shared/schemas/error';
import { toIsoOutput } from '#shared/schemas/common';

/** PostgreSQL `int` range: larger ids cannot exist, and binding them as int would fail. */
export const MAX_INT4 = 2_147_483_647;
export const isInt4Id = (v: number) => Number.isInteger(v) && v >= 1 && v <= MAX_INT4;

/**
 * Values valid JSON and valid for the shared schemas that PostgreSQL still refuses: text with a
 * NUL character. Every failing path is listed, so the caller answers 422 rather than a 500.
 */
export function unstorableStrings(value: unknown, path: string[] = []): FieldError[] {
  if (typeof value === 'string') {
    return value.includes('\u0000')
      ? [{ path: path.join('.') || '(body)', message: 'Text may not contain a NUL character' }]
      : [];
  }
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : Object.entries(value);
  return entries.flatMap(([k, v]) => [
    ...(k.includes('\u0000')
      ? [{ path: [...path, k].join('.'), message: 'Field names may not contain a NUL character' }]
      : []),
    ...unstorableStrings(v, [...path, k]),
  ]);
}

/** An input date as the output form, or null when PostgreSQL cannot store it (year 0, beyond 9999). */
export function storableDate(input: string): string | null {
  const iso = toIsoOutput(input);
  return /^\d{4}-/.test(iso) && !iso.startsWith('0000') ? iso : null;
}
