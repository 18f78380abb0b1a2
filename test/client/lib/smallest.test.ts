import { describe, expect, it } from 'vitest';
import { smallest } from '../../../src/client/lib/smallest';

/**
 * The site picker's nearest 12 of thousands (smallest): exactly a stable sort's first k. Look-alike
 * items on purpose: most of them tie (no position: every distance is "unknown", ordered by code;
 * two traps on one post share a distance and a code's revisions share a code).
 */
type Item = { id: number; distance: number | null; code: string };
const byDistanceThenCode = (a: Item, b: Item) =>
  (a.distance ?? Infinity) - (b.distance ?? Infinity) || a.code.localeCompare(b.code);

function items(n: number, seed: number): Item[] {
  let x = seed;
  const next = () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x;
  };
  return Array.from({ length: n }, (_, id) => ({
    id,
    distance: next() % 3 === 0 ? null : next() % 40,
    code: String(100_000 + (next() % 25)),
  }));
}

describe('smallest: the k first of a stable sort, in one pass', () => {
  it('matches sort and slice, ties kept in input order', () => {
    for (const seed of [1, 2, 3, 42, 1_234])
      for (const k of [0, 1, 12, 50, 2_000]) {
        const all = items(1_500, seed);
        expect(smallest(all, k, byDistanceThenCode)).toEqual(
          [...all].sort(byDistanceThenCode).slice(0, k),
        );
      }
  });

  it('orders by code alone when nothing has a distance (no GPS position)', () => {
    const all = items(800, 7).map((i) => ({ ...i, distance: null }));
    const got = smallest(all, 12, byDistanceThenCode);
    expect(got).toEqual([...all].sort(byDistanceThenCode).slice(0, 12));
    expect(got.map((i) => i.code)).toEqual([...got.map((i) => i.code)].sort());
  });
});
