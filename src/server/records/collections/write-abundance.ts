import type { Queryable, Row } from '../../db/database';
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
  await insertAbundance(q, collection, agency, [...wanted.values()], now);
}

/**
 * The ids `insert … select … order by n returning id` drew, in the order of its input: ids come
 * from the sequence in insertion order, so ascending ids are input order (RETURNING itself
 * promises no order).
 */
const idsInInputOrder = (rows: { id: number }[]) =>
  rows.map((r) => Number(r.id)).sort((a, b) => a - b);

/**
 * Inserts abundance rows of a collection in one statement (a new collection has no active set);
 * returns the rows written, in the order given (only their ids are read back: the rest is what
 * was written).
 */
export async function insertAbundance(
  q: Queryable,
  collection: number,
  agency: number,
  rows: readonly AbundanceInput[],
  now: Date,
): Promise<Row[]> {
  if (rows.length === 0) return [];
  const { rows: written } = await q.query<{ id: number }>(
    `insert into abundance (collection, agency, species, sex, num_count, add_date)
     select $1, $2, r.species, r.sex, r.num_count, $6
       from unnest($3::int[], $4::int[], $5::int[]) with ordinality as r(species, sex, num_count, n)
      order by r.n
     returning id`,
    [
      collection,
      agency,
      rows.map((r) => r.species),
      rows.map((r) => r.sex),
      rows.map((r) => r.num_count),
      now,
    ],
  );
  return idsInInputOrder(written).map((id, i) => ({
    id,
    collection,
    agency,
    species: rows[i].species,
    sex: rows[i].sex,
    num_count: rows[i].num_count,
    deactive_date: null,
  }));
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
  await insertLures(q, collection, agency, [...wanted], now);
}

/**
 * Inserts lure records of a collection in one statement; returns them in the order given (only
 * their ids are read back).
 */
export async function insertLures(
  q: Queryable,
  collection: number,
  agency: number,
  lures: readonly number[],
  now: Date,
): Promise<Row[]> {
  if (lures.length === 0) return [];
  const { rows: written } = await q.query<{ id: number }>(
    `insert into record_lure (table_name, record_id, agency, lure, add_date)
     select 'collection', $1, $2, l.lure, $4
       from unnest($3::int[]) with ordinality as l(lure, n)
      order by l.n
     returning id`,
    [collection, agency, [...lures], now],
  );
  return idsInInputOrder(written).map((id, i) => ({
    id,
    add_date: now,
    table_name: 'collection',
    record_id: collection,
    agency,
    lure: lures[i],
    deactive_date: null,
  }));
}
