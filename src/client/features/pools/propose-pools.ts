import {
  exceedsCount,
  poolBuilderOverflowMessage,
  pooledTotals,
  speciesSexKey as keyOf,
  type Counted,
} from '#shared/rules';

/** Most mosquitoes a laboratory takes in one pool. */
export const MAX_POOL_SIZE = 50;

export type ProposedPool = Counted;

/**
 * Pools proposed from a collection's abundance rows: for each species and sex, what is not yet
 * pooled, in pools of at most `max` (full pools first, the remainder last), in row order. The
 * proposal never holds more than the abundance row (#shared/rules/pooled-within-counted).
 */
export function proposePools(
  rows: readonly Counted[],
  existing: readonly Counted[] = [],
  max = MAX_POOL_SIZE,
): ProposedPool[] {
  const pooled = pooledTotals(existing);
  const pools: ProposedPool[] = [];
  for (const row of rows) {
    let left = row.num_count - (pooled.get(keyOf(row)) ?? 0);
    while (left > 0) {
      const size = Math.min(max, left);
      pools.push({ species: row.species, sex: row.sex, num_count: size });
      left -= size;
    }
  }
  return pools;
}

export type PoolProblem = { index: number; message: string };

/**
 * Problems of an edited proposal: a pool over `max`, or the pools of a species and sex holding
 * more than its abundance row leaves (reported on the last pool that goes over).
 */
export function checkPools(
  pools: readonly Partial<Counted>[],
  rows: readonly Counted[],
  existing: readonly Counted[],
  describe: (species: number, sex: number) => string,
  max = MAX_POOL_SIZE,
): PoolProblem[] {
  const problems: PoolProblem[] = [];
  const available = new Map(rows.map((r) => [keyOf(r), r.num_count]));
  const used = pooledTotals(existing);
  pools.forEach((p, index) => {
    if (
      typeof p.species !== 'number' ||
      typeof p.sex !== 'number' ||
      typeof p.num_count !== 'number'
    )
      return;
    if (p.num_count > max) problems.push({ index, message: `A pool holds at most ${max}` });
    const key = keyOf(p as Counted);
    const total = (used.get(key) ?? 0) + p.num_count;
    used.set(key, total);
    const counted = available.get(key) ?? 0;
    if (exceedsCount(total, counted)) {
      problems.push({
        index,
        message: poolBuilderOverflowMessage({ pooled: total, counted }, describe(p.species, p.sex)),
      });
    }
  });
  return problems;
}
