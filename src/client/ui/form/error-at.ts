/** The message at a dotted path of react-hook-form's nested `errors` (`arthropods.2.sex`). */
export function errorAt(errors: unknown, path: string): string | null {
  let node: unknown = errors;
  for (const part of path.split('.')) {
    if (node == null || typeof node !== 'object') return null;
    node = (node as Record<string, unknown>)[part];
  }
  if (node && typeof node === 'object') {
    const message = (node as { message?: unknown }).message;
    if (typeof message === 'string') return message;
    const root = (node as { root?: { message?: unknown } }).root;
    if (root && typeof root.message === 'string') return root.message;
  }
  return null;
}
