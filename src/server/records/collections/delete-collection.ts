import type { Database, Row } from '../../db/database';
import type { Caller } from '../auth/types';
import { notFound } from '../errors';
import { assertManager } from '../common/permissions';
import { collectionRecords } from './collection-records';
import { retireTestsOfPools } from '../pool-tests/retire-tests';
import { beginHistory } from '../history/record-history';

/**
 * DELETE /v1/arthropod/collection/{id}: retires the collection, its active pools and their test
 * results (`deactive_date`); managers only.
 */
export async function deleteCollection(
  db: Database,
  caller: Caller,
  id: number,
  now: Date,
): Promise<Row> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query(
      'select id from collection where id = $1 and agency = $2 for update',
      [id, caller.agencyId],
    );
    if (rows.length === 0) throw notFound('Collection');
    assertManager(caller, 'collection');
    const history = await beginHistory(tx, caller, now, 'collection', 'delete', [id]);
    const poolHistory = await beginHistory(
      tx,
      caller,
      now,
      'pool',
      'delete',
      (
        await tx.query<{ id: number }>(
          'select id from pool where collection = $1 and deactive_date is null',
          [id],
        )
      ).rows.map((p) => p.id),
    );
    // Deleting twice keeps the first date: a retried delete changes nothing.
    const retired = await tx.query(
      `update collection set deactive_date = $2, updated = $2 where id = $1 and deactive_date is null
       returning id`,
      [id, now],
    );
    // Its active pools retire with it, in the same transaction, and their test results with
    // them: a pool drawn from a deleted collection must not stay in the lists.
    if (retired.rows.length > 0) {
      const pools = await tx.query<{ id: number }>(
        `update pool set deactive_date = $2, updated = $2 where collection = $1 and deactive_date is null
         returning id`,
        [id, now],
      );
      await retireTestsOfPools(
        tx,
        caller,
        pools.rows.map((p) => p.id),
        now,
      );
    }
    await history.finish();
    await poolHistory.finish();
    const [record] = await collectionRecords(tx, caller.agencyId, [id]);
    return record;
  });
}
