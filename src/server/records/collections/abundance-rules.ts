import type { Queryable } from '../../db/database';
import type { AbundanceInput } from '#shared/schemas/collection';
import type { FieldError } from '#shared/schemas/error';
import {
  exceedsCount,
  mixedConditionConflicts,
  poolOverflowMessage,
  type PoolOverflow,
} from '#shared/rules';
import { validationFailed } from '../errors';
import type { LookupRef } from '../common/lookup-errors';

/** Lookup references of abundance rows, for `lookupErrors`. */
export function abundanceRefs(rows: AbundanceInput[]): LookupRef[] {
  return rows.flatMap((r, i) => [
    { path: `arthropods.${i}.species`, table: 'species' as const, id: r.species },
    { path: `arthropods.${i}.sex`, table: 'sex' as const, id: r.sex },
  ]);
}

/** Contract §6: F-Mixed with a specific female condition of the same species → 422. */
export async function assertNoMixedConflict(q: Queryable, rows: AbundanceInput[]): Promise<void> {
  if (rows.length === 0) return;
  const { rows: sexes } = await q.query<{ id: number; name: string }>(
    'select id, name from sex where id = any($1::int[])',
    [[...new Set(rows.map((r) => r.sex))]],
  );
  assertNoMixedConflictAmong(rows, sexes);
}

/** assertNoMixedConflict, with the names of the rows' sexes already read. */
export function assertNoMixedConflictAmong(
  rows: AbundanceInput[],
  sexes: Array<{ id: number; name: string }>,
): void {
  const conflicts = mixedConditionConflicts(rows, sexes);
  if (conflicts.length > 0) throw validationFailed(conflicts, 'mixed_condition_conflict');
}

/**
 * Contract §6 "pooled ≤ counted" (src/shared/rules/pooled-within-counted.ts) read from the
 * tables: the collection's active pools by species and sex, with `extra`, the pool being written
 * (not yet, or no longer, counted in the table), against its abundance rows. The caller holds
 * the collection row locked (`for update`), so concurrent pool writes are checked one after the
 * other. Returns the first species and sex (by species, then sex) over its count.
 */
export async function poolOverflow(
  q: Queryable,
  collection: number,
  extra: { species: number; sex: number; num_count: number; exceptPoolId: number | null } | null,
): Promise<PoolOverflow | null> {
  const { rows } = await q.query<{
    species: number;
    sex: number;
    pooled: number;
    counted: number | null;
  }>(
    `with pooled as (
       select species, sex, sum(num_count::bigint) as n from (
         select species, sex, num_count from pool
          where collection = $1 and deactive_date is null and id <> $2
         union all
         select $3::int, $4::int, $5::int where $3::int is not null
       ) p group by species, sex
     )
     select p.species, p.sex, p.n::float8 as pooled, a.num_count as counted
       from pooled p
       left join abundance a on a.collection = $1 and a.deactive_date is null
            and a.species = p.species and a.sex = p.sex
      order by p.species, p.sex`,
    [
      collection,
      extra?.exceptPoolId ?? 0,
      extra?.species ?? null,
      extra?.sex ?? null,
      extra?.num_count ?? null,
    ],
  );
  // `pooled` is summed as bigint (a sum of ints can pass the int range) and read as a number.
  const over = rows.find((r) => exceedsCount(Number(r.pooled), r.counted ?? undefined));
  return over ? { ...over, pooled: Number(over.pooled), counted: over.counted ?? 0 } : null;
}

export function overflowError(
  o: { pooled: number; counted: number },
  path: string,
  fields: FieldError[] = [],
) {
  const message = poolOverflowMessage(o);
  return validationFailed([{ path, message }, ...fields], 'pool_count_exceeds_abundance', message);
}
