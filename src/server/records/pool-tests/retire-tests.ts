import type { Queryable } from '../../db/database';

/**
 * Retires the active test results of these pools, dated as the pools' deletion: they go with
 * their pool (contract §6 says DELETE sets `deactive_date`; a result of a pool that is no longer
 * a record is no longer evidence). Tests already retired keep their date.
 */
export async function retireTestsOfPools(tx: Queryable, pools: number[], now: Date): Promise<void> {
  if (pools.length === 0) return;
  await tx.query(
    `update pool_test set deactive_date = $2, updated = $2
      where pool = any($1::int[]) and deactive_date is null`,
    [pools, now],
  );
}
