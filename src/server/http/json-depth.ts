/**
 * Deepest nesting a request body may have. The deepest real body (a collection's location
 * shape's crs) is 5 levels; the margin leaves room for any record the contract describes.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * Whether a parsed JSON value nests objects/arrays deeper than `max`. Iterative on purpose: the
 * value may be nested thousands of levels (JSON.parse accepts it), and a recursive walk would
 * overflow the stack, which is exactly what this check protects the rest of the service from.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}
