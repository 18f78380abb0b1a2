import type { Database, Row } from '../../db/database';
import type { Caller } from '../auth/types';
import { notFound } from '../errors';
import { assertManager } from '../common/permissions';
import { poolRecords } from './pool-records';
import { retireTestsOfPools } from '../pool-tests/retire-tests';
import { beginHistory } from '../history/record-history';

/** DELETE /v1/arthropod/pool/{id}: retires the pool and its tests (`deactive_date`); managers only. */
export async function deletePool(
  db: Database,
  caller: Caller,
  id: number,
  now: Date,
): Promise<Row> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query('select id from pool where id = $1 and agency = $2', [
      id,
      caller.agencyId,
    ]);
    if (rows.length === 0) throw notFound('Pool');
    assertManager(caller, 'pool');
    const history = await beginHistory(tx, caller, now, 'pool', 'delete', [id]);
    // Deleting twice keeps the first date: a retried delete changes nothing.
    const retired = await tx.query(
      'update pool set deactive_date = $2, updated = $2 where id = $1 and deactive_date is null returning id',
      [id, now],
    );
    // Its test results retire with it: a deleted pool's result is no longer evidence.
    if (retired.rows.length > 0) await retireTestsOfPools(tx, caller, [id], now);
    await history.finish();
    const [record] = await poolRecords(tx, caller.agencyId, [id]);
    return record;
  });
}
