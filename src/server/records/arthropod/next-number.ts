import type { Queryable } from '../../db/database';
import { ApiError } from '../errors';
import { MAX_INT4 } from '../storable';

/**
 * Serialises numbering of one (agency, surv_year) series until the transaction ends, so two
 * concurrent creates never read the same "next" number (contract §6). The key is a hash of
 * the series name: collection and pool numbers are distinct series.
 */
export async function lockNumberSeries(
  q: Queryable,
  series: 'collection' | 'pool',
  agency: number,
  survYear: number,
): Promise<void> {
  await q.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `trapline:${series}_num:${agency}:${survYear}`,
  ]);
}

/**
 * Next number of a series: one past the highest ever used, retired records included. When an
 * explicit number took the top of the `int` range (2147483647), the series continues at its
 * lowest free number instead, so a defaulted create never fails on an overflow.
 */
export async function nextNumber(
  q: Queryable,
  series: 'collection' | 'pool',
  agency: number,
  survYear: number,
): Promise<number> {
  // The table and column are fixed by `series`, never taken from a request. bigint: max + 1 of
  // a full series is beyond int.
  const col = `${series}_num`;
  const { rows } = await q.query<{ next: string | number }>(
    `select coalesce(max(${col})::bigint, 0) + 1 as next from ${series} where agency = $1 and surv_year = $2`,
    [agency, survYear],
  );
  const next = Number(rows[0].next);
  if (next <= MAX_INT4) return next;
  const free = await q.query<{ free: number | null }>(
    `select case when not exists (select 1 from ${series} where agency = $1 and surv_year = $2 and ${col} = 1)
              then 1
              else (select min(a.${col}) + 1 from ${series} a
                     where a.agency = $1 and a.surv_year = $2 and a.${col} < $3
                       and not exists (select 1 from ${series} b
                                        where b.agency = $1 and b.surv_year = $2 and b.${col} = a.${col} + 1))
            end as free`,
    [agency, survYear, MAX_INT4],
  );
  const lowest = free.rows[0].free;
  if (lowest === null) {
    throw new ApiError(
      409,
      `${series}_num_taken`,
      `Every ${series} number of ${survYear} is in use; retire a record of that year first`,
      [{ path: col, message: `No free number left in ${survYear}` }],
    );
  }
  return Number(lowest);
}

/** Whether a number of the series is already held by another record. */
export async function numberTaken(
  q: Queryable,
  series: 'collection' | 'pool',
  agency: number,
  survYear: number,
  num: number,
  exceptId: number | null = null,
): Promise<boolean> {
  const { rows } = await q.query(
    `select 1 from ${series} where agency = $1 and surv_year = $2 and ${series}_num = $3 and id <> $4`,
    [agency, survYear, num, exceptId ?? 0],
  );
  return rows.length > 0;
}
