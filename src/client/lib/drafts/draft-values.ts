/**
 * Comparing and combining a form's values for its draft. A blank field is the same however the
 * form holds it (undefined, null, '' after clearing, or a key not there at all), and a number
 * field holding text (NaN) equals itself, so typing that ends where it started counts as no
 * change and leaves no draft.
 */

const isBlank = (v: unknown) => v === undefined || v === null || v === '';

export function sameFormValues(a: unknown, b: unknown): boolean {
  if (isBlank(a) && isBlank(b)) return true;
  if (typeof a === 'number' && typeof b === 'number')
    return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameFormValues(item, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    return [...keys].every((k) => sameFormValues(x[k], y[k]));
  }
  return a === b;
}

/**
 * An edit draft over the record as it is now: each field (top-level key, a list of rows counts as
 * one) the technician changed from what the form opened with (`typedOver`) comes from the draft;
 * every other field from the record now (`current`), so a pull's changes to fields nobody typed
 * in are not reverted by restoring the draft.
 */
export function typedOnto<T extends Record<string, unknown>>(
  draft: T,
  typedOver: Record<string, unknown>,
  current: Record<string, unknown>,
): T {
  const merged: Record<string, unknown> = { ...current };
  for (const key of new Set([...Object.keys(draft), ...Object.keys(typedOver)])) {
    if (!sameFormValues(draft[key], typedOver[key])) merged[key] = draft[key];
  }
  return merged as T;
}
