import type { Database, Queryable, Row } from '../../db/database';
import type { CollectionUpdate } from '#shared/schemas/collection';
import type { FieldError } from '#shared/schemas/error';
import { survYearOf } from '#shared/rules';
import type { Caller } from '../auth/types';
import { HttpError } from '../../http/http-error';
import { notFound, validationFailed } from '../errors';
import { assertNoMixedConflict, overflowError, poolOverflow } from './abundance-rules';
import { agencySite, noSuchSite } from '../common/agency-site';
import { collectionRecords } from './collection-records';
import { collectionRefs } from './collection-references';
import { collectionNumTaken } from './create-collection';
import { isDateOnly } from '../common/iso-date';
import { insertLocation, type Point } from '../common/location-record';
import { lookupErrors } from '../common/lookup-errors';
import {
  assertPlausibleNumber,
  lockNumberSeries,
  nextNumber,
  numberTaken,
} from '../common/next-number';
import { assertCanUpdate, assertOwnAgency } from '../common/permissions';
import { writeAbundance, writeLures } from './write-abundance';
import { storedDate } from '../stored-date';
import { beginHistory } from '../history/record-history';
import { assertTestsNotBefore, earliestCollectionDay } from '../pool-tests/test-date-rule';

/** Plain columns a PUT may set, with the body field each comes from. */
const COLUMNS = [
  'comments',
  'identified_by',
  'num_trap',
  'trap',
  'trap_nights',
  'trap_problem_bit',
] as const;

/**
 * What `null` sets a column to (contract §6: null clears an optional field to its default).
 * Required columns have none: the update schema refuses null for them before this runs.
 */
const CLEARED: Record<(typeof COLUMNS)[number], unknown> = {
  comments: null,
  identified_by: null,
  num_trap: undefined,
  trap: undefined,
  trap_nights: undefined,
  trap_problem_bit: false,
};

/**
 * PUT /v1/arthropod/collection/{id}: sent fields change, unsent keep their values, `null` clears
 * an optional field (contract §6). `arthropods` / `lures` replace the active sets. The row is
 * locked for the transaction, so pool writes on this collection wait and see the new counts.
 */
export async function updateCollection(
  db: Database,
  caller: Caller,
  id: number,
  body: CollectionUpdate,
  now: Date,
): Promise<Row> {
  assertOwnAgency(caller, body.agency, 'collection');
  assertPlausibleNumber('collection', body.collection_num);
  const collectionDate =
    body.collection_date != null ? storedDate(body.collection_date, 'collection_date') : null;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query(
      'select * from collection where id = $1 and agency = $2 and deactive_date is null for update',
      [id, caller.agencyId],
    );
    const current = rows[0];
    if (!current) throw notFound('Collection');
    assertCanUpdate(caller, current.user_id as number | null, 'collection');
    // Its pools carry its date, site, place, trap and year, so an edit here may change them too:
    // each pool that changes gets its own history row, from the same transaction.
    const history = await beginHistory(tx, caller, now, 'collection', 'update', [id]);
    const poolHistory = await beginHistory(
      tx,
      caller,
      now,
      'pool',
      'update',
      (
        await tx.query<{ id: number }>(
          'select id from pool where collection = $1 and deactive_date is null',
          [id],
        )
      ).rows.map((p) => p.id),
    );

    const errors: FieldError[] = await lookupErrors(tx, collectionRefs(body));
    // The site it already has is no change (a GET sent back), even if that site was deleted since.
    const keepsSite = body.site != null && body.site === current.site;
    const site =
      body.site != null && !keepsSite ? await agencySite(tx, caller.agencyId, body.site) : null;
    if (body.site != null && !keepsSite && !site) errors.push(noSuchSite(body.site));
    if (errors.length > 0) throw validationFailed(errors);
    if (body.arthropods) await assertNoMixedConflict(tx, body.arthropods);

    const sets: string[] = [];
    const params: unknown[] = [id];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    for (const c of COLUMNS) if (body[c] !== undefined) set(c, body[c] ?? CLEARED[c]);
    if (body.collection_date != null) {
      set('collection_date', collectionDate);
      if (body.collection_date_date_only === undefined) {
        set('collection_date_date_only', isDateOnly(body.collection_date));
      }
    }
    if (body.collection_date_date_only !== undefined) {
      set('collection_date_date_only', body.collection_date_date_only ?? true);
    }

    // Number and year: the series of the (possibly new) year is locked before checking. A date
    // moved into another year takes its survey year along unless surv_year was sent; the old
    // number then moves too, or takes the next free one of the new year if it is taken there.
    const dateYear =
      body.collection_date != null && body.surv_year == null
        ? survYearOf(body.collection_date)
        : null;
    const movesYear = dateYear !== null && dateYear !== writtenYear(current);
    const survYear = body.surv_year ?? (movesYear ? dateYear : (current.surv_year as number));
    let num = body.collection_num ?? (current.collection_num as number);
    if (survYear !== current.surv_year || num !== current.collection_num) {
      await lockNumberSeries(tx, 'collection', caller.agencyId, survYear);
      if (await numberTaken(tx, 'collection', caller.agencyId, survYear, num, id)) {
        if (body.collection_num != null || !movesYear) throw collectionNumTaken(num, survYear);
        num = await nextNumber(tx, 'collection', caller.agencyId, survYear);
      }
      set('surv_year', survYear);
      set('collection_num', num);
    }

    // Site and location: a new location replaces the old; a newly named site without one brings
    // its own (naming the same site again keeps a location given earlier).
    if (body.site !== undefined && !keepsSite) set('site', site?.id ?? null);
    const point = body.location
      ? {
          lon: body.location.shape.coordinates[0],
          lat: body.location.shape.coordinates[1],
          coordinatePrecision: body.location.coordinate_precision,
        }
      : site && !site.isZeroSite && site.id !== current.site
        ? { lon: site.lon, lat: site.lat, coordinatePrecision: site.coordinate_precision }
        : null;
    // A location echoed back unchanged (a GET sent back as PUT) keeps its record.
    if (point && !(await samePlace(tx, current.location as number | null, point))) {
      set('location', await insertLocation(tx, 'collection', id, caller.agencyId, point));
    }

    set('updated', now);
    await tx.query(`update collection set ${sets.join(', ')} where id = $1`, params);
    // Pools always carry their collection's date, site, place and trap. A pool whose fields change
    // is changed: its `updated` moves, or a tablet pulling what changed since (by `updated`)
    // would keep the old date, site and trap for good. Pools left as they were keep theirs.
    await tx.query(
      `update pool p set collection_date = c.collection_date, site = c.site, location = c.location,
              trap = c.trap, updated = $2
         from collection c where c.id = $1 and p.collection = c.id
          and (p.collection_date, p.site, p.location, p.trap)
              is distinct from (c.collection_date, c.site, c.location, c.trap)`,
      [id, now],
    );

    if (survYear !== current.surv_year) {
      await movePoolsToYear(tx, id, caller.agencyId, survYear, now);
    }
    // The day its pools' tests are held to moves with the date, and with date_only (a date-only
    // day is the day as written, later than the same moment's day at UTC-12).
    if (collectionDate !== null || body.collection_date_date_only !== undefined) {
      const dateOnly =
        body.collection_date_date_only !== undefined
          ? (body.collection_date_date_only ?? true)
          : body.collection_date != null
            ? isDateOnly(body.collection_date)
            : (current.collection_date_date_only as boolean);
      const day = earliestCollectionDay(
        collectionDate ?? (current.collection_date as Date),
        dateOnly,
      );
      await assertTestsNotBefore(tx, { collection: id }, day, 'collection_date');
    }
    // `null` clears the set, like any optional field.
    if (body.arthropods !== undefined) {
      await writeAbundance(tx, id, caller.agencyId, body.arthropods ?? [], now);
      const overflow = await poolOverflow(tx, id, null);
      if (overflow) throw overflowError(overflow, 'arthropods');
    }
    if (body.lures !== undefined) await writeLures(tx, id, caller.agencyId, body.lures ?? [], now);
    await history.finish();
    await poolHistory.finish();
    const [record] = await collectionRecords(tx, caller.agencyId, [id]);
    return record;
  });
}

/**
 * Pools take their survey year from their collection; their numbers must stay unique in the new
 * year (409 pool_num_taken otherwise). The pool series of that year is locked first, as on create.
 */
async function movePoolsToYear(
  tx: Queryable,
  collection: number,
  agency: number,
  year: number,
  now: Date,
) {
  await lockNumberSeries(tx, 'pool', agency, year);
  const { rows } = await tx.query<{ pool_num: number }>(
    `select p.pool_num from pool p
      where p.collection = $1 and exists (
        select 1 from pool q where q.agency = $2 and q.surv_year = $3 and q.pool_num = p.pool_num
           and q.id <> p.id and q.collection is distinct from $1)
      order by p.pool_num limit 1`,
    [collection, agency, year],
  );
  if (rows[0]) {
    throw new HttpError(
      409,
      'pool_num_taken',
      `Pool number ${rows[0].pool_num} of this collection is already used in ${year}; renumber that pool first`,
      [
        {
          path: 'surv_year',
          message: `Pool number ${rows[0].pool_num} is already used in ${year}`,
        },
      ],
    );
  }
  await tx.query('update pool set surv_year = $2, updated = $3 where collection = $1', [
    collection,
    year,
    now,
  ]);
}

/**
 * The year the collection's current date was written in (the local year, which surv_year
 * defaults to): only the stored UTC moment is kept, so a date-time near New Year may have been
 * written in the UTC year before or after (offsets run from UTC-12:00 to UTC+14:00). A surv_year
 * that is one of those years is that year; otherwise (an explicitly different surv_year) the
 * UTC year stands for it.
 */
function writtenYear(current: Row): number {
  const at = new Date(current.collection_date as Date).getTime();
  const utcYear = new Date(at).getUTCFullYear();
  if (current.collection_date_date_only === true) return utcYear;
  const hour = 3_600_000;
  const candidates = [
    new Date(at - 12 * hour).getUTCFullYear(),
    new Date(at + 14 * hour).getUTCFullYear(),
  ];
  const survYear = current.surv_year as number;
  return candidates.includes(survYear) ? survYear : utcYear;
}

/** Whether a location record already holds this point and precision. */
async function samePlace(tx: Queryable, location: number | null, p: Point): Promise<boolean> {
  if (location === null) return false;
  const { rows } = await tx.query(
    `select 1 from location where id = $1 and lon = $2 and lat = $3
        and coordinate_precision is not distinct from $4::int`,
    [location, p.lon, p.lat, p.coordinatePrecision],
  );
  return rows.length > 0;
}
