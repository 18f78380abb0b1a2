import { inject, type ProvidedContext } from 'vitest';

/**
 * What the run's global setup provides (test/pglite-template.ts), or nothing outside Vitest: a
 * bench script or `npm run chaos` that uses a test helper, which then makes its own.
 */
export function providedOrNone<K extends keyof ProvidedContext>(
  key: K,
): ProvidedContext[K] | undefined {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}
