import type { Queryable } from '../../db/database';
import type { Caller } from '../auth/types';
import { beginHistory } from '../history/record-history';

/**
 * Retires the active test results of these pools, dated as the pools' deletion: they go with
 * their pool (contract §6 says DELETE sets `deactive_date`; a result of a pool that is no longer
 * a record is no longer evidence). Tests already retired keep their date. Each retired test gets
 * its own `delete` history row, in the deleting transaction (contract §11).
 */
export async function retireTestsOfPools(
  tx: Queryable,
  caller: Caller,
  pools: number[],
  now: Date,
): Promise<void> {
  if (pools.length === 0) return;
  const { rows } = await tx.query<{ id: number }>(
    'select id from pool_test where pool = any($1::int[]) and deactive_date is null',
    [pools],
  );
  const history = await beginHistory(
    tx,
    caller,
    now,
    'test',
    'delete',
    rows.map((r) => r.id),
  );
  await tx.query(
    `update pool_test set deactive_date = $2, updated = $2
      where pool = any($1::int[]) and deactive_date is null`,
    [pools, now],
  );
  await history.finish();
}
