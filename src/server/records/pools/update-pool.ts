import type { Database, Row } from '../../db/database';
import type { PoolUpdate } from '#shared/schemas/pool';
import type { Caller } from '../auth/types';
import { notFound, validationFailed } from '../errors';
import { overflowError, poolOverflow } from '../collections/abundance-rules';
import { agencySite, noSuchSite } from '../common/agency-site';
import { insertLocation } from '../common/location-record';
import {
  lockCollection,
  noSuchCollection,
  poolNumTaken,
  poolRefs,
  type LockedCollection,
} from './create-pool';
import { lookupErrors } from '../common/lookup-errors';
import { lockWhereItStands, MOVED } from '../common/lock-where-it-stands';
import { assertPlausibleNumber, lockNumberSeries, numberTaken } from '../common/next-number';
import { survYearOf } from '#shared/rules';
import { assertCanUpdate, assertOwnAgency } from '../common/permissions';
import { poolRecords } from './pool-records';
import { storedDate } from '../stored-date';
import { beginHistory } from '../history/record-history';
import {
  assertTestsNotBefore,
  earliestCollectionDay,
  standalonePoolDay,
} from '../pool-tests/test-date-rule';

/**
 * PUT /v1/arthropod/pool/{id}: sent fields change, unsent keep their values. Response-only
 * fields (`primary_source`, `surv_year`, `location`, …) are ignored. Locks: collections first
 * (in ID order), then the pool, the same order as collection updates take, so concurrent
 * writers queue instead of deadlocking.
 */
export async function updatePool(
  db: Database,
  caller: Caller,
  id: number,
  body: PoolUpdate,
  now: Date,
): Promise<Row> {
  assertOwnAgency(caller, body.agency, 'pool');
  assertPlausibleNumber('pool', body.pool_num);
  const collectionDate =
    body.collection_date != null ? storedDate(body.collection_date, 'collection_date') : null;
  return db.transaction(async (tx) => {
    // The pool's collection is read first, unlocked, to know which collections to lock before the
    // pool. If the pool was moved or retired before its row was locked (READ COMMITTED: another
    // request committed in between), what was locked and read is stale: a retired pool is 404,
    // and a moved one gives its locks back (savepoint) and takes those of where it now is.
    const { targetId, locked, current } = await lockWhereItStands(tx, 'pool_locks', async () => {
      const before = await tx.query<{ collection: number | null }>(
        'select collection from pool where id = $1 and agency = $2 and deactive_date is null',
        [id, caller.agencyId],
      );
      if (before.rows.length === 0) throw notFound('Pool');
      const wasIn = before.rows[0].collection;
      const target = body.collection !== undefined ? body.collection : wasIn;
      const lockIds = [...new Set([wasIn, target].filter((v): v is number => v != null))].sort(
        (x, y) => x - y,
      );
      const collections = new Map<number, LockedCollection | null>();
      for (const cid of lockIds)
        collections.set(cid, await lockCollection(tx, caller.agencyId, cid));
      const { rows } = await tx.query(
        'select * from pool where id = $1 and deactive_date is null for update',
        [id],
      );
      if (rows.length === 0) throw notFound('Pool');
      if (rows[0].collection !== wasIn) return MOVED;
      return { targetId: target, locked: collections, current: rows[0] as Row };
    });
    assertCanUpdate(caller, current.user_id as number | null, 'pool');
    const history = await beginHistory(tx, caller, now, 'pool', 'update', [id]);

    const errors = await lookupErrors(tx, poolRefs(body));
    const collection = targetId != null ? (locked.get(targetId) ?? null) : null;
    if (targetId != null && !collection && body.collection !== undefined)
      errors.push(noSuchCollection(targetId));
    // The site it already has is no change (a GET sent back), even if that site was deleted since.
    const keepsSite = body.site != null && body.site === current.site;
    const site =
      body.site != null && !collection && !keepsSite
        ? await agencySite(tx, caller.agencyId, body.site)
        : null;
    if (body.site != null && !collection && !keepsSite && !site) errors.push(noSuchSite(body.site));
    if (errors.length > 0) throw validationFailed(errors);

    const species = body.species ?? (current.species as number);
    const sex = body.sex ?? (current.sex as number);
    const numCount = body.num_count ?? (current.num_count as number);
    // Only a change of what the pool holds, or where from, is checked against the counts.
    const countsChange = ['collection', 'species', 'sex', 'num_count'].some(
      (k) => body[k as keyof PoolUpdate] != null,
    );
    if (collection && countsChange) {
      const overflow = await poolOverflow(tx, collection.id, {
        species,
        sex,
        num_count: numCount,
        exceptPoolId: id,
      });
      if (overflow) throw overflowError(overflow, 'num_count');
    }

    // Contract §6: the pool's tests may not end up dated before the collection it now has (a
    // collection it moves into, or a standalone pool's new collection_date).
    if (body.collection !== undefined || body.collection_date != null) {
      const standaloneDate = collectionDate ?? (current.collection_date as Date | null);
      const day = collection
        ? earliestCollectionDay(collection.collection_date, collection.collection_date_date_only)
        : standaloneDate !== null
          ? standalonePoolDay(standaloneDate)
          : null;
      const path = collection && body.collection != null ? 'collection' : 'collection_date';
      if (day !== null) await assertTestsNotBefore(tx, { pool: id }, day, path);
    }

    // A pool whose (unchanged) collection was retired keeps pointing at it.
    const collectionId =
      collection?.id ??
      (body.collection === undefined ? (current.collection as number | null) : null);
    // A pool takes its survey year from its collection, or, naming none, from its own date (as on
    // create): a standalone pool re-dated into another year moves to that year with its number,
    // as a collection's pools do. A number taken there is a 409, as for them: the number is on
    // the pool's label at the lab, so it is never changed unasked.
    const dateYear =
      collectionId === null && body.collection_date != null
        ? survYearOf(body.collection_date)
        : null;
    const survYear = collection?.surv_year ?? dateYear ?? (current.surv_year as number);
    const poolNum = body.pool_num ?? (current.pool_num as number);
    if (survYear !== current.surv_year || poolNum !== current.pool_num) {
      await lockNumberSeries(tx, 'pool', caller.agencyId, survYear);
      if (await numberTaken(tx, 'pool', caller.agencyId, survYear, poolNum, id))
        throw poolNumTaken(poolNum, survYear);
    }
    const primaryBit = body.primary_source_bit ?? (current.primary_source_bit as boolean);
    const comments = body.comments !== undefined ? body.comments : current.comments;

    // A pool of a collection takes its site, place, date and trap; a standalone pool keeps its own
    // unless the body changes or clears them (`null`: refused just below, they are required).
    const own = <T>(sent: T | null | undefined, kept: T) => (sent === null ? null : (sent ?? kept));
    const siteId = collection ? collection.site : own(site?.id ?? body.site, current.site);
    const poolDate = collection
      ? collection.collection_date
      : own(collectionDate ?? body.collection_date, current.collection_date);
    const trap = collection ? collection.trap : own(body.trap, current.trap);
    // Contract §6: a pool with no collection needs site, collection_date and trap, as on create.
    if (collectionId === null) {
      const missing = Object.entries({ site: siteId, collection_date: poolDate, trap })
        .filter(([, v]) => v == null)
        .map(([path]) => ({
          path,
          message: `${path} is required when the pool names no collection`,
        }));
      if (missing.length > 0) throw validationFailed(missing);
    }
    // A standalone pool is placed at its site, as on create: one named anew brings its place.
    const location = collection
      ? collection.location
      : collectionId === null && site && (site.id !== current.site || current.collection !== null)
        ? await insertLocation(tx, 'pool', id, caller.agencyId, {
            lon: site.lon,
            lat: site.lat,
            coordinatePrecision: site.coordinate_precision,
          })
        : current.location;
    await tx.query(
      `update pool set collection = $2, site = $3, location = $4, surv_year = $5, pool_num = $6, num_count = $7,
         species = $8, sex = $9, primary_source_bit = $10, primary_source = $11, comments = $12,
         collection_date = $13, trap = $14, updated = $15
       where id = $1`,
      [
        id,
        collectionId,
        siteId,
        location,
        survYear,
        poolNum,
        numCount,
        species,
        sex,
        primaryBit,
        primaryBit && collectionId ? collectionId : null,
        comments,
        poolDate,
        trap,
        now,
      ],
    );
    await history.finish();
    const [record] = await poolRecords(tx, caller.agencyId, [id]);
    return record;
  });
}
