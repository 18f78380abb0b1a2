import type { Queryable } from '../../db/database';
import type { AbundanceInput } from '#shared/schemas/collection';

/**
 * Makes `rows` the collection's active abundance set (contract §6): a row with the same species
 * and sex keeps its ID and takes the new count, new ones are inserted, and active rows no longer
 * present get a `deactive_date` (never hard-deleted).
 */
export async function writeAbundance(
  q: Queryable,
  collection: number,
  agency: number,
  rows: AbundanceInput[],
  now: Date,
): Promise<void> {
  const { rows: active } = await q.query<{ id: number; species: number; sex: number }>(
    'select id, species, sex from abundance where collection = $1 and deactive_date is null',
    [collection],
  );
  const key = (r: { species: number; sex: number }) => `${r.species}:${r.sex}`;
  const wanted = new Map(rows.map((r) => [key(r), r]));
  for (const a of active) {
    const next = wanted.get(key(a));
    if (next) {
      await q.query('update abundance set num_count = $2 where id = $1', [a.id, next.num_count]);
      wanted.delete(key(a));
    } else {
      await q.query('update abundance set deactive_date = $2 where id = $1', [a.id, now]);
    }
  }
  for (const r of wanted.values()) {
    await q.query(
      `insert into abundance (collection, agency, species, sex, num_count, add_date)
       values ($1, $2, $3, $4, $5, $6)`,
      [collection, agency, r.species, r.sex, r.num_count, now],
    );
  }
}

/**
 * Makes `lures` (lure type IDs) the record's active lure set: present types keep their lure
 * record, new ones get one, and records of types no longer listed get a `deactive_date`.
 */
export async function writeLures(
  q: Queryable,
  collection: number,
  agency: number,
  lures: number[],
  now: Date,
): Promise<void> {
  const { rows: active } = await q.query<{ id: number; lure: number }>(
    `select id, lure from record_lure
      where table_name = 'collection' and record_id = $1 and deactive_date is null`,
    [collection],
  );
  const wanted = new Set(lures);
  for (const a of active) {
    if (wanted.has(a.lure)) wanted.delete(a.lure);
    else await q.query('update record_lure set deactive_date = $2 where id = $1', [a.id, now]);
  }
  for (const lure of wanted) {
    await q.query(
      `insert into record_lure (table_name, record_id, agency, lure, add_date)
       values ('collection', $1, $2, $3, $4)`,
      [collection, agency, lure, now],
    );
  }
}
