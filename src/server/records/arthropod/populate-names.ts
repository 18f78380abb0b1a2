import { validationFailed } from '../errors';

/**
 * Reads `populate[]` (also `populate`, `populate[0]`, or a comma list) from a URL's query string
 * and checks every name against those the resource accepts; others → 422 (contract §4).
 */
export function populateNames(url: string, allowed: readonly string[]): Set<string> {
  const q = url.indexOf('?');
  const params = new URLSearchParams(q >= 0 ? url.slice(q + 1) : '');
  const names = new Set<string>();
  for (const [key, value] of params) {
    if (key !== 'populate' && !/^populate\[\d*\]$/.test(key)) continue;
    for (const name of value.split(',')) if (name.trim() !== '') names.add(name.trim());
  }
  const unknown = [...names].filter((n) => !allowed.includes(n));
  if (unknown.length > 0) {
    throw validationFailed(
      unknown.map((n) => ({
        path: 'populate',
        message: `Cannot populate '${n}'; choose from ${allowed.join(', ')}`,
      })),
    );
  }
  return names;
}
