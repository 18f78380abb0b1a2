import type { Queryable, Row } from '../../db/database';
import { HttpError } from '../../http/http-error';
import { validationFailed } from '../errors';

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
  await q.query(`select ${lockSeriesSql('$1')}`, [seriesLockKey(series, agency, survYear)]);
}

/** The key lockNumberSeries locks: bind it to the parameter given to lockSeriesSql. */
export const seriesLockKey = (series: 'collection' | 'pool', agency: number, survYear: number) =>
  `trapline:${series}_num:${agency}:${survYear}`;

/**
 * lockNumberSeries as an expression (a void column), for a statement that has other reads to do
 * first in the transaction: the number is drawn by a later statement, whose snapshot is taken
 * after the lock.
 */
export const lockSeriesSql = (keyParam: string) =>
  `pg_advisory_xact_lock(hashtextextended(${keyParam}, 0))`;

/**
 * The highest number a series takes, explicit or defaulted. A year plausibly needs far fewer
 * (the busiest districts number tens of thousands); the bound keeps one typo or hostile
 * `2147483647` from exhausting the range (issue 9, D2). Numbers above it stored before the bound
 * existed stay valid and unique, and the default numbering ignores them.
 */
export const MAX_SERIES_NUMBER = 999_999;

/** 422 naming the field when an explicit number is beyond the bound. */
export function assertPlausibleNumber(
  series: 'collection' | 'pool',
  num: number | null | undefined,
): void {
  if (num == null || num <= MAX_SERIES_NUMBER) return;
  const path = `${series}_num`;
  throw validationFailed(
    [{ path, message: `Must be at most ${MAX_SERIES_NUMBER}` }],
    'validation_failed',
    `${path} must be at most ${MAX_SERIES_NUMBER}; leave it empty to get the next free number`,
  );
}

/**
 * Next number of a series (call under lockNumberSeries): one past the highest number in use up
 * to MAX_SERIES_NUMBER, retired records included. When explicit numbers fill the top of the
 * range (a run ending at the bound), it is one past the highest number below that run, so a
 * defaulted create never fails while a number is free below and never searches the series.
 * A create draws the common case inside its insert (insertNumbered); this is its fallback.
 *
 * Cost: one statement reading the series' unique index (agency, surv_year, num) downwards from
 * the bound, stopping at the first number that is not part of the top run: 1 row normally,
 * r + 1 with a top run of r numbers, never the whole series. (Within the top run, the k-th
 * highest number is bound + 1 - k; the first row breaking that is the highest number below it.)
 * With no number below the top run (or none at all), 1, unless the run reaches down to it.
 */
export async function nextNumber(
  q: Queryable,
  series: 'collection' | 'pool',
  agency: number,
  survYear: number,
): Promise<number> {
  // The table and column are fixed by `series`, never taken from a request.
  const col = `${series}_num`;
  const { rows } = await q.query<{ num: number | null }>(
    `select coalesce(
       (select num + 1 from (
          select ${col} as num, row_number() over (order by ${col} desc) as rn
            from ${series} where agency = $1 and surv_year = $2 and ${col} <= $3
           order by ${col} desc
        ) top_down
        where num <> $3 + 1 - rn
        limit 1),
       (select 1 where not exists (
          select 1 from ${series} where agency = $1 and surv_year = $2 and ${col} = 1))
     ) as num`,
    [agency, survYear, MAX_SERIES_NUMBER],
  );
  const num = rows[0]?.num;
  if (num != null) return Number(num);
  throw new HttpError(
    409,
    `${series}_num_taken`,
    `Every ${series} number of ${survYear} up to ${MAX_SERIES_NUMBER} is in use; retire a record of that year first`,
    [{ path: col, message: `No free number left in ${survYear}` }],
  );
}

/**
 * What nearly every create needs of nextNumber, as an SQL expression over the given parameters
 * for the create's insert to draw its number with: one past the highest number up to the bound
 * (one probe of the series' index), or null when that highest number IS the bound (a run of
 * explicit numbers at the top; see insertNumbered). On PGlite a statement's planning is most of
 * its cost: this costs 0.18 ms a statement where nextNumber's costs 0.28, and planning both as
 * alternatives of one statement cost 0.37.
 */
export function afterHighestSql(
  series: 'collection' | 'pool',
  params: { agency: string; survYear: string; bound: string },
): string {
  const col = `${series}_num`;
  const { agency, survYear, bound } = params;
  return `(select m + 1 from (
      select coalesce(max(${col}), 0) as m from ${series}
       where agency = ${agency} and surv_year = ${survYear} and ${col} <= ${bound}
    ) highest where m < ${bound})`;
}

/**
 * A create's insert with its number (call under lockNumberSeries): `insert(given)`, where the
 * insert writes `given`, else the number afterHighestSql draws in it (its snapshot is taken
 * after the lock); it writes nothing when that draws null. Then it runs again with nextNumber's
 * answer (a full series answers 409). Returns the row the insert returned.
 */
export async function insertNumbered<T extends Row>(
  q: Queryable,
  series: 'collection' | 'pool',
  scope: { agency: number; survYear: number },
  given: number | null,
  insert: (num: number | null) => Promise<{ rows: T[] }>,
): Promise<T> {
  const first = await insert(given);
  if (first.rows[0]) return first.rows[0];
  const { rows } = await insert(await nextNumber(q, series, scope.agency, scope.survYear));
  return rows[0];
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
