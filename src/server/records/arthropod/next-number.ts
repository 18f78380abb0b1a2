import type { Queryable } from '../../db/database';

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

/** Next number of a series: one past the highest ever used, retired records included. */
export async function nextNumber(
  q: Queryable,
  series: 'collection' | 'pool',
  agency: number,
  survYear: number,
): Promise<number> {
  // The table and column are fixed by `series`, never taken from a request.
  const { rows } = await q.query<{ next: number }>(
    `select coalesce(max(${series}_num), 0) + 1 as next from ${series} where agency = $1 and surv_year = $2`,
    [agency, survYear],
  );
  return Number(rows[0].next);
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
