import type { Queryable } from '../../db/database';
import type { Caller } from '../auth/types';
import { changesBetween } from './changes-between';
import type { HistoryAction, HistoryEntity } from './history-entity';
import { readSnapshots, SNAPSHOT_SQL } from './read-snapshots';

/**
 * The history of one write (contract §11), kept on the write's own transaction `tx`:
 *
 * 1. `beginHistory` reads the records' snapshots before the write changes them (none for a
 *    create). Call it after the write has locked the rows it changes, so nothing else changes
 *    them until commit.
 * 2. The write runs.
 * 3. `finish` reads the snapshots again and inserts one `record_history` row per record that
 *    changed, still in `tx`. A create names the ids it wrote here.
 *
 * Why a crash can never leave a write without its history row, or a history row without its
 * write: both are statements of one SQL transaction, which PostgreSQL (and PGlite) commits
 * atomically; a crash before COMMIT rolls back both, after it keeps both. Any error after the
 * write (a rule checked late, a constraint, the idempotency claim lost in createOnce) throws out
 * of the same transaction and takes the history row with it. An idempotent replay (contract §9)
 * answers from the stored answer and never runs the route, so it writes no second row.
 *
 * A write that changed nothing (a record sent back as it was, a repeated delete) writes no row:
 * the history lists changes, and a retried request is not one.
 */
export async function beginHistory(
  tx: Queryable,
  caller: Caller,
  at: Date,
  entity: HistoryEntity,
  action: HistoryAction,
  ids: readonly number[] = [],
): Promise<{ finish(created?: readonly number[]): Promise<number[]> }> {
  const before = await readSnapshots(tx, entity, ids);
  return {
    async finish(created = []) {
      const written = [...ids, ...created];
      const after = await readSnapshots(tx, entity, written);
      return insertHistory(
        tx,
        caller,
        at,
        entity,
        action,
        written.map((id) => ({ id, before: before.get(id) ?? null, after: after.get(id) ?? null })),
      );
    },
  };
}

/**
 * The history of a create: every field it set, from nothing (as changesBetween(null, after)).
 * One statement for any number of new records (a batch of sites), reading the new record's snapshot and inserting its row: a create is the
 * write a tablet's sync sends most, and each statement is a round trip on PostgreSQL.
 */
export async function historyOfCreate(
  tx: Queryable,
  caller: Caller,
  at: Date,
  entity: HistoryEntity,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(
    `insert into record_history (agency, entity, record_id, action, user_id, at, changes)
     select $2, $3, s.id, 'create', $4, $5,
            coalesce((select jsonb_object_agg(e.key, jsonb_build_array(null, e.value))
                        from jsonb_each(s.snap) e
                       where e.value not in ('null'::jsonb, '[]'::jsonb)), '{}'::jsonb)
       from (${SNAPSHOT_SQL[entity]}) s`,
    [ids, caller.agencyId, entity, caller.userId, at],
  );
}

type Written = {
  id: number;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

/** One history row per record whose snapshot changed, in one statement; answers their ids. */
async function insertHistory(
  tx: Queryable,
  caller: Caller,
  at: Date,
  entity: HistoryEntity,
  action: HistoryAction,
  written: Written[],
): Promise<number[]> {
  const rows = written
    .map((w) => ({ id: w.id, changes: changesBetween(w.before, w.after) }))
    .filter((r) => Object.keys(r.changes).length > 0);
  if (rows.length === 0) return [];
  await tx.query(
    `insert into record_history (agency, entity, record_id, action, user_id, at, changes)
     select $1, $2, r.id, $3, $4, $5, r.changes
       from jsonb_to_recordset($6::jsonb) as r(id int, changes jsonb)`,
    [caller.agencyId, entity, action, caller.userId, at, JSON.stringify(rows)],
  );
  return rows.map((r) => r.id);
}
