import type { Database, Row } from '../../db/database';
import type { Caller } from '../auth/types';
import { notFound } from '../errors';
import { assertManager } from '../common/permissions';
import { collectionRecords } from './collection-records';

/**
 * DELETE /v1/arthropod/collection/{id}: retires the collection and its active pools
 * (`deactive_date`); managers only.
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
    // Deleting twice keeps the first date: a retried delete changes nothing.
    const retired = await tx.query(
      `update collection set deactive_date = $2, updated = $2 where id = $1 and deactive_date is null
       returning id`,
      [id, now],
    );
    // Its active pools retire with it, in the same transaction: a pool drawn from a deleted
    // collection must not stay in the pool lists.
    if (retired.rows.length > 0) {
      await tx.query(
        `update pool set deactive_date = $2, updated = $2 where collection = $1 and deactive_date is null`,
        [id, now],
      );
    }
    const [record] = await collectionRecords(tx, caller.agencyId, [id]);
    return record;
  });
}
