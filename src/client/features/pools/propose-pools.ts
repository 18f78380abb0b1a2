/** Most mosquitoes a laboratory takes in one pool. */
export const MAX_POOL_SIZE = 50;

type Counted = { species: number; sex: number; num_count: number };
export type ProposedPool = { species: number; sex: number; num_count: number };

const keyOf = (r: { species: number; sex: number }) => `${r.species}:${r.sex}`;

/** How many of each species and sex the existing pools already hold. */
export function pooledCounts(pools: readonly Counted[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const p of pools) sums.set(keyOf(p), (sums.get(keyOf(p)) ?? 0) + p.num_count);
  return sums;
}

/**
 * Pools proposed from a collection's abundance rows: for each species and sex, what is not yet
 * pooled, in pools of at most `max` (full pools first, the remainder last), in row order. The
 * proposal never holds more than the abundance row (contract: pool_count_exceeds_abundance).
 */
export function proposePools(
  rows: readonly Counted[],
  existing: readonly Counted[] = [],
  max = MAX_POOL_SIZE,
): ProposedPool[] {
  const pooled = pooledCounts(existing);
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
  const used = pooledCounts(existing);
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
    const limit = available.get(key) ?? 0;
    if (total > limit) {
      problems.push({
        index,
        message:
          limit === 0
            ? `No ${describe(p.species, p.sex)} were counted in this collection`
            : `Only ${limit} ${describe(p.species, p.sex)} were counted: these pools would hold ${total}`,
      });
    }
  });
  return problems;
}
