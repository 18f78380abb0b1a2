/**
 * A form's values as typed. A number field holding text ("12a") has NaN as its value (asNumber,
 * so the schema says "must be a number"), and a draft or an Undo kept that NaN: the field came
 * back showing "NaN", what was typed lost. Here each NaN is replaced by the text of its field's
 * input, found by its name (react-hook-form names an input by its field's path); with no such
 * input it stays NaN. Restored, the text shows as typed and the schema still refuses it.
 */
export function typedValues<T>(values: T): T {
  return withText(values, '') as T;
}

function withText(value: unknown, path: string): unknown {
  if (typeof value === 'number') return Number.isNaN(value) ? (inputText(path) ?? value) : value;
  const at = (key: string | number) => (path ? `${path}.${key}` : String(key));
  if (Array.isArray(value)) return value.map((item, i) => withText(item, at(i)));
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withText(v, at(k))]));
  return value;
}

function inputText(name: string): string | null {
  if (!name || typeof document === 'undefined') return null;
  for (const element of document.getElementsByName(name))
    if (element instanceof HTMLInputElement) return element.value;
  return null;
}
