import type { Database, Row } from '../../db/database';
import type { CollectionCreate } from '#shared/schemas/collection';
import type { FieldError } from '#shared/schemas/error';
import { survYearOf } from '#shared/rules';
import type { Caller } from '../auth/types';
import { HttpError } from '../../http/http-error';
import { validationFailed } from '../errors';
import { abundanceRefs, assertNoMixedConflict } from './abundance-rules';
import { agencySite, noSuchSite } from '../common/agency-site';
import { abundanceRecord, collectionRecord, lureRecord } from './collection-records';
import { isDateOnly } from '../common/iso-date';
import { LOCATION_COLUMNS, type Point } from '../common/location-record';
import { lookupErrors, type LookupRef } from '../common/lookup-errors';
import {
  assertPlausibleNumber,
  lockNumberSeries,
  nextNumber,
  numberTaken,
} from '../common/next-number';
import { assertOwnAgency } from '../common/permissions';
import { insertAbundance, insertLures } from './write-abundance';
import { storedDate } from '../stored-date';

/** Lookup references a collection body makes (trap, lures, location precision, arthropods). */
export function collectionRefs(body: Partial<CollectionCreate>): LookupRef[] {
  return [
    ...(body.trap != null ? [{ path: 'trap', table: 'trap' as const, id: body.trap }] : []),
    ...(body.lures ?? []).map((id, i) => ({ path: `lures.${i}`, table: 'lure' as const, id })),
    ...(body.location
      ? [
          {
            path: 'location.coordinate_precision',
            table: 'coordinate_precision' as const,
            id: body.location.coordinate_precision,
          },
        ]
      : []),
    ...abundanceRefs(body.arthropods ?? []),
  ];
}

export const collectionNumTaken = (num: number, year: number) =>
  new HttpError(
    409,
    'collection_num_taken',
    `Collection number ${num} is already used in ${year}; leave it empty to get the next free number`,
    [{ path: 'collection_num', message: `Already used in ${year}` }],
  );

/**
 * POST /v1/arthropod/collection, in one transaction: a rejected request writes nothing.
 * The number series of (agency, surv_year) is locked before the number is read, so concurrent
 * creates never share a number.
 */
export async function createCollection(
  db: Database,
  caller: Caller,
  body: CollectionCreate,
  now: Date,
): Promise<Row> {
  assertOwnAgency(caller, body.agency);
  assertPlausibleNumber('collection', body.collection_num);
  const collectionDate = storedDate(body.collection_date, 'collection_date');
  return db.transaction(async (tx) => {
    const errors: FieldError[] = await lookupErrors(tx, collectionRefs(body));
    const site = body.site != null ? await agencySite(tx, caller.agencyId, body.site) : null;
    if (body.site != null && !site) errors.push(noSuchSite(body.site));
    if (errors.length > 0) throw validationFailed(errors);
    await assertNoMixedConflict(tx, body.arthropods ?? []);

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

    const survYear = body.surv_year ?? survYearOf(body.collection_date);
    await lockNumberSeries(tx, 'collection', caller.agencyId, survYear);
    let num = body.collection_num ?? null;
    if (num !== null && (await numberTaken(tx, 'collection', caller.agencyId, survYear, num))) {
      throw collectionNumTaken(num, survYear);
    }
    num ??= await nextNumber(tx, 'collection', caller.agencyId, survYear);

    // The collection's id is drawn first so its location row is written pointing at it: one
    // statement for both rows instead of insert, insert, update.
    // The answer is built from what the statements return, not read back: nothing else can
    // change these rows before the transaction commits.
    const { rows } = await tx.query(
      `with loc as (
         insert into location (table_name, record_id, agency, lon, lat, coordinate_precision)
         values ('collection', nextval(pg_get_serial_sequence('collection', 'id')), $1, $15, $16, $17)
         returning *),
       c as (
         insert into collection (id, agency, user_id, site, location, collection_date,
           collection_date_date_only, collection_num, comments, identified_by, num_trap,
           surv_year, trap, trap_nights, trap_problem_bit, add_date, updated)
         select loc.record_id, $1, $2, $3, loc.id, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
           $14, $14
           from loc
         returning *)
       select c.*, ${LOCATION_COLUMNS} from c join loc l on l.id = c.location`,
      [
        caller.agencyId,
        caller.userId,
        site?.id ?? null,
        collectionDate,
        body.collection_date_date_only ?? isDateOnly(body.collection_date),
        num,
        body.comments ?? null,
        body.identified_by ?? null,
        body.num_trap,
        survYear,
        body.trap,
        body.trap_nights,
        body.trap_problem_bit ?? false,
        now,
        point.lon,
        point.lat,
        point.coordinatePrecision,
      ],
    );
    const row = rows[0];
    const id = row.id as number;
    // A new collection has no active rows to reconcile with: insert its rows and lures at once.
    const arthropods = await insertAbundance(tx, id, caller.agencyId, body.arthropods ?? [], now);
    const lures = await insertLures(tx, id, caller.agencyId, body.lures ?? [], now);
    return collectionRecord(row, lures.map(lureRecord), arthropods.map(abundanceRecord));
  });
}
