import { lockWhereItStands, MOVED } from '../common/lock-where-it-stands';
import type { Database, Queryable, Row } from '../../db/database';
import type { FieldError } from '#shared/schemas/error';
import type { PoolTestCreate, PoolTestUpdate } from '#shared/schemas/pool-test';
import type { Caller } from '../auth/types';
import { notFound, validationFailed } from '../errors';
import { lookupErrors, type LookupRef } from '../common/lookup-errors';
import { assertCanUpdate, assertOwnAgency } from '../common/permissions';
import { poolTestRecords } from './pool-test-records';
import { assertTestNotBeforeCollection, earliestCollectionDay } from './test-date-rule';
import { storedDate } from '../stored-date';
import { poolTestValueErrors } from './pool-test-values';
import { beginHistory, historyOfCreate } from '../history/record-history';

function poolTestRefs(body: Partial<PoolTestCreate>): LookupRef[] {
  const refs: LookupRef[] = [];
  if (body.method != null) refs.push({ path: 'method', table: 'test_method', id: body.method });
  if (body.target != null) refs.push({ path: 'target', table: 'test_target', id: body.target });
  if (body.status != null) refs.push({ path: 'status', table: 'test_status', id: body.status });
  if (body.test_agency != null)
    refs.push({ path: 'test_agency', table: 'agency', id: body.test_agency });
  return refs;
}

/**
 * The earliest calendar day of an active pool's collection (see test-date-rule.ts), null when
 * it has none, undefined when the agency has no such active pool. A standalone pool's date is a
 * date only when it is at midnight UTC (how date-only input is stored).
 *
 * The pool's collection and then the pool are locked (`for share`) until the transaction ends,
 * in the order every writer takes them (collection, then pool): a collection date edit, a pool
 * moved to another collection or re-dated, or a pool retired, waits for this test to commit and
 * then sees it (contract §6 under concurrency; on READ COMMITTED a plain read let both pass).
 * The pool's collection is read first without a lock; if the pool moved before its row was
 * locked, those locks are given back (savepoint) and taken again where the pool now is.
 */
async function poolCollectionDay(
  q: Queryable,
  agency: number,
  pool: number,
): Promise<string | null | undefined> {
  type Read = {
    collection: number | null;
    collection_date: Date | null;
    date_only: boolean | null;
  };
  const read = (lock: boolean) =>
    q.query<Read>(
      `select p.collection, coalesce(c.collection_date, p.collection_date) as collection_date,
              c.collection_date_date_only as date_only
         from pool p left join collection c on c.id = p.collection
        where p.id = $1 and p.agency = $2 and p.deactive_date is null${lock ? ' for share of p' : ''}`,
      [pool, agency],
    );
  const row = await lockWhereItStands(q, 'pool_test_locks', async () => {
    const unlocked = (await read(false)).rows[0];
    if (!unlocked) return undefined;
    if (unlocked.collection !== null) {
      await q.query('select 1 from collection where id = $1 for share', [unlocked.collection]);
    }
    const locked = (await read(true)).rows[0];
    // Moved or retired meanwhile: look again.
    return locked && locked.collection === unlocked.collection ? locked : MOVED;
  });
  if (!row) return undefined;
  const { collection_date: date, date_only: dateOnly } = row;
  if (date === null) return null;
  const midnight = new Date(date).toISOString().endsWith('T00:00:00.000Z');
  return earliestCollectionDay(date, dateOnly ?? midnight);
}

async function validate(
  q: Queryable,
  caller: Caller,
  body: Partial<PoolTestCreate>,
  pool: number | null,
  valueErrors: FieldError[],
) {
  const errors: FieldError[] = [...(await lookupErrors(q, poolTestRefs(body))), ...valueErrors];
  const collectionDay = pool != null ? await poolCollectionDay(q, caller.agencyId, pool) : null;
  if (collectionDay === undefined) {
    errors.push({
      path: 'pool',
      message: `No active pool with ID ${pool} in your agency; pick one of your pools`,
    });
  }
  if (errors.length > 0) throw validationFailed(errors);
  return collectionDay ?? null;
}

/** POST /v1/arthropod/pool/test in one transaction. */
export async function createPoolTest(
  db: Database,
  caller: Caller,
  body: PoolTestCreate,
  now: Date,
): Promise<Row> {
  assertOwnAgency(caller, body.agency, 'pool test');
  // A date the database cannot store is refused first: it is also "in the future", and the
  // year is what to fix.
  const testDate = storedDate(body.test_date, 'test_date');
  return db.transaction(async (tx) => {
    const collectionDay = await validate(
      tx,
      caller,
      body,
      body.pool,
      await poolTestValueErrors(tx, body, null, now),
    );
    if (collectionDay) assertTestNotBeforeCollection(testDate, collectionDay, 'test_date');
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
    await historyOfCreate(tx, caller, now, 'test', [rows[0].id]);
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
  assertOwnAgency(caller, body.agency, 'pool test');
  // As on create: an unstorable date is named for its year before anything else.
  const sentDate = body.test_date != null ? storedDate(body.test_date, 'test_date') : null;
  return db.transaction(async (tx) => {
    // Lock order, as every writer takes it: collection, pool, then the test. Deleting a pool or
    // a collection locks those and then retires the pool's tests; an edit that locked its test
    // first and then waited for the pool's collection deadlocked with it (PostgreSQL aborts one:
    // a 500). So the collection and pool the test will be on are locked first (what validate()
    // reads), then the test's row; if the test was moved to another pool meanwhile, the locks
    // are given back (savepoint) and taken again.
    const checksPool = body.pool != null || body.test_date != null;
    const current = await lockWhereItStands(tx, 'pool_test_row', async () => {
      const seen = await tx.query<{ pool: number }>(
        'select pool from pool_test where id = $1 and agency = $2 and deactive_date is null',
        [id, caller.agencyId],
      );
      if (!seen.rows[0]) throw notFound('Pool test');
      if (checksPool) await poolCollectionDay(tx, caller.agencyId, body.pool ?? seen.rows[0].pool);
      const { rows } = await tx.query(
        'select * from pool_test where id = $1 and agency = $2 and deactive_date is null for update',
        [id, caller.agencyId],
      );
      if (!rows[0]) throw notFound('Pool test');
      return body.pool != null || rows[0].pool === seen.rows[0].pool ? (rows[0] as Row) : MOVED;
    });
    assertCanUpdate(caller, current.user_id as number | null, 'pool test');
    const history = await beginHistory(tx, caller, now, 'test', 'update', [id]);
    const pool = body.pool ?? (current.pool as number);
    const collectionDay = await validate(
      tx,
      caller,
      body,
      body.pool != null || body.test_date != null ? pool : null,
      await poolTestValueErrors(
        tx,
        body,
        { method: current.method as number, value: current.value as number | string | null },
        now,
      ),
    );
    const testDate = sentDate ?? isoOf(current.test_date);
    if (collectionDay) assertTestNotBeforeCollection(testDate, collectionDay, 'test_date');

    const params: unknown[] = [id, testDate, now];
    const sets = ['test_date = $2', 'updated = $3'];
    for (const c of COLUMNS) {
      if (body[c] === undefined) continue;
      params.push(body[c]);
      sets.push(`${c} = $${params.length}`);
    }
    await tx.query(`update pool_test set ${sets.join(', ')} where id = $1`, params);
    await history.finish();
    const [record] = await poolTestRecords(tx, caller.agencyId, [id]);
    return record;
  });
}

const isoOf = (v: unknown) => new Date(v as Date).toISOString();
