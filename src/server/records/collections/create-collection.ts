import type { Database, Row } from '../../db/database';
import type { CollectionCreate } from '#shared/schemas/collection';
import { survYearOf } from '#shared/rules';
import type { Caller } from '../auth/types';
import { HttpError } from '../../http/http-error';
import { validationFailed } from '../errors';
import { assertNoMixedConflictAmong } from './abundance-rules';
import { readCollectionReferences } from './collection-references';
import type { LookupCatalog } from '../common/lookup-catalog';
import { abundanceRecord, collectionRecord, lureRecord } from './collection-records';
import { isDateOnly } from '../common/iso-date';
import { locationColumns, type Point } from '../common/location-record';
import {
  MAX_SERIES_NUMBER,
  afterHighestSql,
  assertPlausibleNumber,
  insertNumbered,
  seriesLockKey,
  numberTaken,
} from '../common/next-number';
import { assertOwnAgency } from '../common/permissions';
import {
  abundanceColumns,
  abundanceInsertSql,
  abundanceWritten,
  luresInsertSql,
  luresWritten,
} from './write-abundance';
import { storedDate } from '../stored-date';
import { historyOfCreate } from '../history/record-history';

export const collectionNumTaken = (num: number, year: number) =>
  new HttpError(
    409,
    'collection_num_taken',
    `Collection number ${num} is already used in ${year}; leave it empty to get the next free number`,
    [{ path: 'collection_num', message: `Already used in ${year}` }],
  );

/**
 * The one statement writing a new collection (see createCollection), built once rather than
 * per request (the prepared statement is found by its text, which is then hashed once).
 * $6 the given number or null; $18 the series' bound; $19-$21 the abundance columns; $22 lures.
 */
const INSERT_COLLECTION_SQL = (() => {
  const next = afterHighestSql('collection', { agency: '$1', survYear: '$10', bound: '$18' });
  return `with n as (select coalesce($6::int, ${next}) as num),
           loc as (
             insert into location (table_name, record_id, agency, lon, lat, coordinate_precision)
             select 'collection', nextval('collection_id_seq'::regclass), $1, $15,
               $16, $17
               from n where n.num is not null
             returning id, record_id),
           c as (
             insert into collection (id, agency, user_id, site, location, collection_date,
               collection_date_date_only, collection_num, comments, identified_by, num_trap,
               surv_year, trap, trap_nights, trap_problem_bit, add_date, updated)
             select loc.record_id, $1, $2, $3, loc.id, $4, $5, n.num, $7, $8, $9, $10, $11, $12,
               $13, $14, $14
               from loc, n
             returning id, collection_num, location),
           ab as (${abundanceInsertSql({ from: 'c', collection: 'c.id', agency: '$1', species: '$19', sex: '$20', count: '$21', now: '$14' })}),
           lu as (${luresInsertSql({ from: 'c', collection: 'c.id', agency: '$1', lures: '$22', now: '$14' })})
           select c.id, c.collection_num, c.location, array(select id from ab) as abundance_ids,
             array(select id from lu) as lure_ids
             from c`;
})();

/**
 * POST /v1/arthropod/collection, in one transaction: a rejected request writes nothing.
 * The number series of (agency, surv_year) is locked before the number is read, so concurrent
 * creates never share a number. Three statements: the references with the lock, then (if the
 * body names its own number) whether that number is taken, then one insert of every row.
 */
export async function createCollection(
  db: Database,
  lookups: LookupCatalog,
  caller: Caller,
  body: CollectionCreate,
  now: Date,
): Promise<Row> {
  assertOwnAgency(caller, body.agency, 'collection');
  assertPlausibleNumber('collection', body.collection_num);
  const collectionDate = storedDate(body.collection_date, 'collection_date');
  const survYear = body.surv_year ?? survYearOf(body.collection_date);
  return db.transaction(async (tx) => {
    // The series is locked in this first read, before the insert draws a number.
    const lockKey = seriesLockKey('collection', caller.agencyId, survYear);
    const refs = await readCollectionReferences(tx, lookups, caller.agencyId, body, lockKey);
    if (refs.errors.length > 0) throw validationFailed(refs.errors);
    const arthropods = body.arthropods ?? [];
    // A lure type is on a collection or not: named twice it is stored once, as a PUT keeps it.
    const lures = [...new Set(body.lures ?? [])];
    assertNoMixedConflictAmong(arthropods, refs.sexes);
    const { site } = refs;

    // Rule 2: location from the body, else from the site; the Zero Site has no place of its own.
    let point: Point;
    if (body.location) {
      const [lon, lat] = body.location.shape.coordinates;
      point = { lon, lat, coordinatePrecision: body.location.coordinate_precision };
    } else if (site && !site.isZeroSite) {
      point = { lon: site.lon, lat: site.lat, coordinatePrecision: site.coordinate_precision };
    } else {
      const message = site
        ? 'A collection at the Zero Site needs its own location: send location with shape and coordinate_precision'
        : 'A collection without a site needs a location: send location with shape and coordinate_precision, or pick a site';
      throw validationFailed([{ path: 'location', message }], 'location_required', message);
    }

    const num = body.collection_num ?? null;
    if (num !== null && (await numberTaken(tx, 'collection', caller.agencyId, survYear, num))) {
      throw collectionNumTaken(num, survYear);
    }

    // One statement writes every row: the number (insertNumbered), then the collection's id,
    // drawn first so its location row is written pointing at it, then (a new collection has no
    // active set to reconcile with) its abundance rows and lures, which the foreign keys check
    // at the statement's end, when the collection exists. With no number drawn, nothing is.
    // The answer is built from the values written and what the statement drew (ids, number),
    // not read back: nothing else can change these rows before the transaction commits, and
    // every column stores its value as given (int, text, boolean; a date in its stored form,
    // storedDate; float8 keeps a double exactly). Reading the row back cost a timestamp parse
    // per date and a wider answer from the database on every create (issue 13).
    const written = {
      agency: caller.agencyId,
      user_id: caller.userId,
      site: site?.id ?? null,
      collection_date: collectionDate,
      collection_date_date_only: body.collection_date_date_only ?? isDateOnly(body.collection_date),
      comments: body.comments ?? null,
      identified_by: body.identified_by ?? null,
      num_trap: body.num_trap,
      surv_year: survYear,
      trap: body.trap,
      trap_nights: body.trap_nights,
      trap_problem_bit: body.trap_problem_bit ?? false,
      add_date: now,
      updated: now,
      deactive_date: null,
    };
    const row = await insertNumbered(
      tx,
      'collection',
      { agency: caller.agencyId, survYear },
      num,
      (number) =>
        tx.query<{
          id: number;
          collection_num: number;
          location: number;
          abundance_ids: number[];
          lure_ids: number[];
        }>(INSERT_COLLECTION_SQL, [
          written.agency,
          written.user_id,
          written.site,
          written.collection_date,
          written.collection_date_date_only,
          number,
          written.comments,
          written.identified_by,
          written.num_trap,
          written.surv_year,
          written.trap,
          written.trap_nights,
          written.trap_problem_bit,
          now,
          point.lon,
          point.lat,
          point.coordinatePrecision,
          MAX_SERIES_NUMBER,
          ...abundanceColumns(arthropods),
          lures,
        ]),
    );
    const { id } = row;
    await historyOfCreate(tx, caller, now, 'collection', [id]);
    return collectionRecord(
      {
        ...written,
        id,
        collection_num: row.collection_num,
        ...locationColumns({
          id: row.location,
          table: 'collection',
          recordId: id,
          agency: caller.agencyId,
          point,
        }),
      },
      luresWritten(row.lure_ids, id, caller.agencyId, lures, now).map(lureRecord),
      abundanceWritten(row.abundance_ids, id, caller.agencyId, arthropods).map(abundanceRecord),
    );
  });
}
