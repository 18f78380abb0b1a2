import type { FieldError } from '#shared/schemas/error';
import { MAX_STORED_INT, toIsoOutput } from '#shared/schemas/common';
import { hasLoneSurrogate, LONE_SURROGATE_MESSAGE, wellFormed } from '#shared/schemas/text';

/** PostgreSQL `int` range: larger ids cannot exist, and binding them as int would fail. */
export const isInt4Id = (v: number) => Number.isInteger(v) && v >= 1 && v <= MAX_STORED_INT;

/**
 * Values valid JSON that PostgreSQL still refuses or silently changes: text with a NUL
 * character, and text or field names with a lone UTF-16 surrogate (jsonb refuses it; UTF-8 turns
 * it into U+FFFD, so a keyed create's stored answer would fail where an unkeyed one succeeds).
 * Every failing path is listed (well-formed itself, so the 422 can be stored and replayed), so
 * the caller answers 422 rather than a 500.
 */
export function unstorableStrings(value: unknown, path: string[] = []): FieldError[] {
  const at = (p: string[]) => wellFormed(p.join('.')) || '(body)';
  if (typeof value === 'string') {
    if (value.includes('\u0000'))
      return [{ path: at(path), message: 'Text may not contain a NUL character' }];
    return hasLoneSurrogate(value) ? [{ path: at(path), message: LONE_SURROGATE_MESSAGE }] : [];
  }
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : Object.entries(value);
  return entries.flatMap(([k, v]) => [
    ...(k.includes('\u0000')
      ? [{ path: at([...path, k]), message: 'Field names may not contain a NUL character' }]
      : hasLoneSurrogate(k)
        ? [{ path: at([...path, k]), message: LONE_SURROGATE_MESSAGE }]
        : []),
    ...unstorableStrings(v, [...path, k]),
  ]);
}

/** An input date as the output form, or null when PostgreSQL cannot store it (year 0, beyond 9999). */
export function storableDate(input: string): string | null {
  const iso = toIsoOutput(input);
  return /^\d{4}-/.test(iso) && !iso.startsWith('0000') ? iso : null;
}
