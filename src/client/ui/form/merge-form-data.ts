/**
 * A record's new data after an edit: the form owns `formKeys` (a key it left empty is cleared);
 * every other field of the record (e.g. `collection_num`, `surv_year` from the server) is kept.
 */
export function mergeFormData<T extends Record<string, unknown>>(
  current: Record<string, unknown>,
  fromForm: T,
  formKeys: readonly string[],
): T {
  const merged: Record<string, unknown> = { ...current };
  for (const key of formKeys) {
    if (fromForm[key] === undefined) delete merged[key];
    else merged[key] = fromForm[key];
  }
  return merged as T;
}

/** Only the keys a form edits, for its initial values. */
export function pickKeys<T extends Record<string, unknown>>(
  data: T,
  keys: readonly string[],
): Partial<T> {
  return Object.fromEntries(keys.filter((k) => k in data).map((k) => [k, data[k]])) as Partial<T>;
}
