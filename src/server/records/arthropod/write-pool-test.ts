import type { Database, Queryable, Row } from '../../db/database';
import type { FieldError } from '../../../shared/schemas/error';
import type { PoolTestCreate, PoolTestUpdate } from '../../../shared/schemas/pool-test';
import type { Caller } from '../auth/types';
import { notFound, validationFailed } from '../errors';
import { lookupErrors, type LookupRef } from './lookup-errors';
import { assertCanUpdate, assertOwnAgency } from './permissions';
import { poolTestRecords } from './pool-test-records';
import { storedDate } from './stored-date';

function poolTestRefs(body: Partial<PoolTestCreate>): LookupRef[] {
  const refs: LookupRef[] = [];
  if (body.method != null) refs.push({ path: 'method', table: 'test_method', id: body.method });
  if (body.target != null) refs.push({ path: 'target', table: 'test_target', id: body.target });
  if (body.status != null) refs.push({ path: 'status', table: 'test_status', id: body.status });
  if (body.test_agency != null)
    refs.push({ path: 'test_agency', table: 'agency', id: body.test_agency });
  return refs;
}

/** The collection date of an active pool of the agency (its collection's), or undefined if none. */
async function poolCollectionDate(
  q: Queryable,
  agency: number,
  pool: number,
): Promise<Date | null | undefined> {
  const { rows } = await q.query<{ collection_date: Date | null }>(
    `select coalesce(c.collection_date, p.collection_date) as collection_date
       from pool p left join collection c on c.id = p.collection
      where p.id = $1 and p.agency = $2 and p.deactive_date is null`,
    [pool, agency],
  );
  return rows.length === 0 ? undefined : rows[0].collection_date;
}

const utcDay = (d: Date | string) => new Date(d).toISOString().slice(0, 10);

/**
 * Contract §6: a test may not be dated before its pool's collection. Compared by UTC calendar
 * day, so a test on the day of collection is accepted whatever the hour of either.
 */
function assertNotBeforeCollection(testDate: string, collectionDate: Date | null): void {
  if (!collectionDate || utcDay(testDate) >= utcDay(collectionDate)) return;
  const message = `The test date ${utcDay(testDate)} is before the pool's collection on ${utcDay(collectionDate)}; check both dates`;
  throw validationFailed([{ path: 'test_date', message }], 'test_before_collection', message);
}

async function validate(
  q: Queryable,
  caller: Caller,
  body: Partial<PoolTestCreate>,
  pool: number | null,
) {
  const errors: FieldError[] = await lookupErrors(q, poolTestRefs(body));
  const collectionDate = pool != null ? await poolCollectionDate(q, caller.agencyId, pool) : null;
  if (collectionDate === undefined) {
    errors.push({
      path: 'pool',
      message: `No active pool with ID ${pool} in your agency; pick one of your pools`,
    });
  }
  if (errors.length > 0) throw validationFailed(errors);
  return collectionDate ?? null;
}

/** POST /v1/arthropod/pool/test in one transaction. */
export async function createPoolTest(
  db: Database,
  caller: Caller,
  body: PoolTestCreate,
  now: Date,
): Promise<Row> {
  assertOwnAgency(caller, body.agency);
  return db.transaction(async (tx) => {
    const collectionDate = await validate(tx, caller, body, body.pool);
    const testDate = storedDate(body.test_date, 'test_date');
    assertNotBeforeCollection(testDate, collectionDate);
    const { rows } = await tx.query<{ id: number }>(
      `insert into pool_test (agency, user_id, pool, method, target, status, test_date, test_agency, value, comments,
         add_date, updated)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) returning id`,
      [
        caller.agencyId,
        caller.userId,
        body.pool,
        body.method,
        body.target,
        body.status,
        testDate,
        body.test_agency,
        body.value ?? null,
        body.comments ?? null,
        now,
      ],
    );
    const [record] = await poolTestRecords(tx, caller.agencyId, [rows[0].id]);
    return record;
  });
}

const COLUMNS = ['pool', 'method', 'target', 'status', 'test_agency', 'value', 'comments'] as const;

/** PUT /v1/arthropod/pool/test/{id}: sent fields change; the date rule is checked again. */
export async function updatePoolTest(
  db: Database,
  caller: Caller,
  id: number,
  body: PoolTestUpdate,
  now: Date,
): Promise<Row> {
  assertOwnAgency(caller, body.agency);
  return db.transaction(async (tx) => {
    const { rows } = await tx.query(
      'select * from pool_test where id = $1 and agency = $2 and deactive_date is null for update',
      [id, caller.agencyId],
    );
    const current = rows[0];
    if (!current) throw notFound('Pool test');
    assertCanUpdate(caller, current.user_id as number | null, 'pool test');
    const pool = body.pool ?? (current.pool as number);
    const collectionDate = await validate(
      tx,
      caller,
      body,
      body.pool != null || body.test_date != null ? pool : null,
    );
    const testDate =
      body.test_date != null ? storedDate(body.test_date, 'test_date') : isoOf(current.test_date);
    assertNotBeforeCollection(testDate, collectionDate);

    const params: unknown[] = [id, testDate, now];
    const sets = ['test_date = $2', 'updated = $3'];
    for (const c of COLUMNS) {
      if (body[c] === undefined) continue;
      params.push(body[c]);
      sets.push(`${c} = $${params.length}`);
    }
    await tx.query(`update pool_test set ${sets.join(', ')} where id = $1`, params);
    const [record] = await poolTestRecords(tx, caller.agencyId, [id]);
    return record;
  });
}

const isoOf = (v: unknown) => new Date(v as Date).toISOString();
