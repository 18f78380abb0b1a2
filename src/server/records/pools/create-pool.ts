import type { Database, Queryable, Row } from '../../db/database';
import type { FieldError } from '#shared/schemas/error';
import type { PoolCreate } from '#shared/schemas/pool';
import { survYearOf } from '#shared/rules';
import type { Caller } from '../auth/types';
import { HttpError } from '../../http/http-error';
import { validationFailed } from '../errors';
import { overflowError, poolOverflow } from '../collections/abundance-rules';
import { agencySite, noSuchSite } from '../common/agency-site';
import { insertLocation } from '../common/location-record';
import { lookupErrors, type LookupRef } from '../common/lookup-errors';
import {
  MAX_SERIES_NUMBER,
  afterHighestSql,
  assertPlausibleNumber,
  insertNumbered,
  lockNumberSeries,
  numberTaken,
} from '../common/next-number';
import { assertOwnAgency } from '../common/permissions';
import { poolRecords } from './pool-records';
import { storedDate } from '../stored-date';
import { historyOfCreate } from '../history/record-history';

export type LockedCollection = {
  id: number;
  site: number | null;
  location: number | null;
  surv_year: number;
  collection_date: Date;
  collection_date_date_only: boolean;
  trap: number;
};

/**
 * An active collection of the agency, locked until the transaction ends (`for update`): pool
 * writes on one collection are thereby serialised, so the abundance rule holds under
 * concurrency. Null when there is none (another agency's counts as none).
 */
export async function lockCollection(
  q: Queryable,
  agency: number,
  id: number,
): Promise<LockedCollection | null> {
  const { rows } = await q.query<LockedCollection>(
    `select id, site, location, surv_year, collection_date, collection_date_date_only, trap from collection
      where id = $1 and agency = $2 and deactive_date is null for update`,
    [id, agency],
  );
  return rows[0] ?? null;
}

export const noSuchCollection = (id: number): FieldError => ({
  path: 'collection',
  message: `No active collection with ID ${id} in your agency; pick one of your collections`,
});

export function poolRefs(body: {
  species?: number | null;
  sex?: number | null;
  trap?: number | null;
}): LookupRef[] {
  return [
    ...(body.species != null
      ? [{ path: 'species', table: 'species' as const, id: body.species }]
      : []),
    ...(body.sex != null ? [{ path: 'sex', table: 'sex' as const, id: body.sex }] : []),
    ...(body.trap != null ? [{ path: 'trap', table: 'trap' as const, id: body.trap }] : []),
  ];
}

export const poolNumTaken = (num: number, year: number) =>
  new HttpError(
    409,
    'pool_num_taken',
    `Pool number ${num} is already used in ${year}; leave it empty to get the next free number`,
    [{ path: 'pool_num', message: `Already used in ${year}` }],
  );

/**
 * POST /v1/arthropod/pool in one transaction. A pool given by `site, collection_date, trap`
 * (with `primary_source_bit: true`) belongs to the agency's active collection at that site,
 * moment and trap when there is exactly one, and is then held to its abundance like any other;
 * without one, or with look-alike twins, it stands alone, placed at the site.
 */
export async function createPool(
  db: Database,
  caller: Caller,
  body: PoolCreate,
  now: Date,
): Promise<Row> {
  assertOwnAgency(caller, body.agency, 'pool');
  assertPlausibleNumber('pool', body.pool_num);
  const collectionDate =
    body.collection_date != null ? storedDate(body.collection_date, 'collection_date') : null;
  return db.transaction(async (tx) => {
    const errors = await lookupErrors(tx, poolRefs(body));
    let collection: LockedCollection | null = null;
    let site = null;
    if (body.collection != null) {
      collection = await lockCollection(tx, caller.agencyId, body.collection);
      if (!collection) errors.push(noSuchCollection(body.collection));
    } else {
      site = await agencySite(tx, caller.agencyId, body.site as number);
      if (!site) errors.push(noSuchSite(body.site as number));
      else {
        // Two look-alike collections (two traps of one kind at one site on one night) leave it
        // unknown which one the pool was drawn from: held to either, it could be refused for the
        // other's count or take counts its twin holds. It then stands alone, as with none.
        const { rows } = await tx.query<{ id: number }>(
          `select id from collection where agency = $1 and site = $2 and collection_date = $3 and trap = $4
              and deactive_date is null order by id limit 2`,
          [caller.agencyId, site.id, collectionDate, body.trap],
        );
        if (rows.length === 1) collection = await lockCollection(tx, caller.agencyId, rows[0].id);
      }
    }
    if (errors.length > 0) throw validationFailed(errors);

    if (collection) {
      const overflow = await poolOverflow(tx, collection.id, {
        species: body.species,
        sex: body.sex,
        num_count: body.num_count,
        exceptPoolId: null,
      });
      if (overflow) throw overflowError(overflow, 'num_count');
    }

    const survYear = collection?.surv_year ?? survYearOf(body.collection_date as string);
    await lockNumberSeries(tx, 'pool', caller.agencyId, survYear);
    const num = body.pool_num ?? null;
    if (num !== null && (await numberTaken(tx, 'pool', caller.agencyId, survYear, num))) {
      throw poolNumTaken(num, survYear);
    }

    const standaloneLocation =
      !collection && site
        ? await insertLocation(tx, 'pool', null, caller.agencyId, {
            lon: site.lon,
            lat: site.lat,
            coordinatePrecision: site.coordinate_precision,
          })
        : null;
    const primaryBit = body.primary_source_bit ?? true;
    // The number: the one given, else drawn in the insert (insertNumbered).
    const next = afterHighestSql('pool', { agency: '$1', survYear: '$6', bound: '$17' });
    const { id } = await insertNumbered(
      tx,
      'pool',
      { agency: caller.agencyId, survYear },
      num,
      (number) =>
        tx.query<{ id: number }>(
          `insert into pool (agency, user_id, collection, site, location, surv_year, pool_num,
             num_count, species, sex, primary_source_bit, primary_source, comments,
             collection_date, trap, add_date, updated)
           select $1, $2, $3, $4, $5, $6, n.num, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16
             from (select coalesce($7::int, ${next}) as num) n
            where n.num is not null
           returning id`,
          [
            caller.agencyId,
            caller.userId,
            collection?.id ?? null,
            collection ? collection.site : (site?.id ?? null),
            collection ? collection.location : standaloneLocation,
            survYear,
            number,
            body.num_count,
            body.species,
            body.sex,
            primaryBit,
            primaryBit && collection ? collection.id : null,
            body.comments ?? null,
            collection ? collection.collection_date : collectionDate,
            collection ? collection.trap : body.trap,
            now,
            MAX_SERIES_NUMBER,
          ],
        ),
    );
    if (standaloneLocation) {
      await tx.query('update location set record_id = $1 where id = $2', [id, standaloneLocation]);
    }
    await historyOfCreate(tx, caller, now, 'pool', [id]);
    const [record] = await poolRecords(tx, caller.agencyId, [id]);
    return record;
  });
}
