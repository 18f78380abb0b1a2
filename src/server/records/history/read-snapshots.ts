import type { Queryable } from '../../db/database';
import type { HistoryEntity } from './history-entity';

/** A record as the history compares it: its fields by API name, plain JSON values. */
export type Snapshot = Record<string, unknown>;

/**
 * Columns that are not the record's content: who owns it and the service's bookkeeping. Every
 * write moves `updated`, so it would be a change on every row and say nothing.
 */
const BOOKKEEPING = `'{id,agency,user_id,add_date,updated}'::text[]`;

/** Where a collection or standalone site is, as one field: a move is one change. */
const PLACE = (alias: string) => `(select jsonb_build_object('longitude', l.lon, 'latitude', l.lat,
    'coordinate_precision', l.coordinate_precision) from location l where l.id = ${alias}.location)`;

/**
 * One statement per entity reading what the history compares, for several records at once (a
 * deleted collection retires its pools and their tests in the same write). Run inside the
 * write's own transaction, after its row locks: what it reads is exactly what is committed
 * with the history row.
 *
 * A collection's abundance rows and lures are part of it (contract §11): `arthropods` is its
 * active set as `{species, sex, num_count}` sorted by species then sex, `lures` the sorted lure
 * type ids, so equal sets compare equal however they were written.
 */
export const SNAPSHOT_SQL: Record<HistoryEntity, string> = {
  site: `select s.id, (to_jsonb(s) - ${BOOKKEEPING} - '{lon,lat}'::text[])
           || jsonb_build_object('longitude', s.lon, 'latitude', s.lat) as snap
           from site s where s.id = any($1::int[])`,
  collection: `select c.id, (to_jsonb(c) - ${BOOKKEEPING} - 'location')
           || jsonb_build_object(
             'location', ${PLACE('c')},
             'arthropods', coalesce((select jsonb_agg(jsonb_build_object('species', a.species,
                 'sex', a.sex, 'num_count', a.num_count) order by a.species, a.sex, a.id)
                 from abundance a where a.collection = c.id and a.deactive_date is null), '[]'),
             'lures', coalesce((select jsonb_agg(distinct r.lure order by r.lure) from record_lure r
                 where r.table_name = 'collection' and r.record_id = c.id
                   and r.deactive_date is null), '[]')) as snap
           from collection c where c.id = any($1::int[])`,
  // A pool's place is its collection's (or its site's): a location id would say nothing.
  pool: `select p.id, to_jsonb(p) - ${BOOKKEEPING} - 'location' as snap
           from pool p where p.id = any($1::int[])`,
  test: `select t.id, to_jsonb(t) - ${BOOKKEEPING} as snap
           from pool_test t where t.id = any($1::int[])`,
};

/** A timestamp as to_jsonb writes it (in the session's time zone) … */
const PG_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d(:\d\d)?|Z)$/;

/** … becomes the contract's UTC form (§3), so a record read on any server compares equal. */
export function normalized(value: unknown): unknown {
  if (typeof value === 'string' && PG_TIMESTAMP.test(value)) {
    return new Date(value).toISOString();
  }
  return value;
}

/** The snapshots of these records (of any agency: callers pass ids they have checked). */
export async function readSnapshots(
  tx: Queryable,
  entity: HistoryEntity,
  ids: readonly number[],
): Promise<Map<number, Snapshot>> {
  const out = new Map<number, Snapshot>();
  if (ids.length === 0) return out;
  const { rows } = await tx.query<{ id: number; snap: Snapshot | string }>(SNAPSHOT_SQL[entity], [
    ids,
  ]);
  for (const row of rows) {
    const snap = typeof row.snap === 'string' ? (JSON.parse(row.snap) as Snapshot) : row.snap;
    out.set(
      Number(row.id),
      Object.fromEntries(Object.entries(snap).map(([k, v]) => [k, normalized(v)])),
    );
  }
  return out;
}
