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
const idsInInputOrder = (ids: readonly number[]) => ids.map(Number).sort((a, b) => a - b);

/** SQL expressions (`$n` or a CTE's column) an insert of a collection's rows is built from. */
type InsertRefs = { from?: string; collection: string; agency: string; now: string };

/**
 * `insert into abundance … returning id` of rows given as three int arrays (species, sex,
 * count), in input order: run alone (insertAbundance) or as a CTE of the collection's insert.
 */
export const abundanceInsertSql = (
  at: InsertRefs & { species: string; sex: string; count: string },
) => `insert into abundance (collection, agency, species, sex, num_count, add_date)
     select ${at.collection}, ${at.agency}, r.species, r.sex, r.num_count, ${at.now}
       from ${at.from ? `${at.from}, ` : ''}unnest(${at.species}::int[], ${at.sex}::int[],
         ${at.count}::int[]) with ordinality as r(species, sex, num_count, n)
      order by r.n
     returning id`;

/** The three int arrays abundanceInsertSql reads, in input order. */
export const abundanceColumns = (rows: readonly AbundanceInput[]) => [
  rows.map((r) => r.species),
  rows.map((r) => r.sex),
  rows.map((r) => r.num_count),
];

/** The abundance rows written, from the ids their insert drew (in any order). */
export function abundanceWritten(
  ids: readonly number[],
  collection: number,
  agency: number,
  rows: readonly AbundanceInput[],
): Row[] {
  return idsInInputOrder(ids).map((id, i) => ({
    id,
    collection,
    agency,
    species: rows[i].species,
    sex: rows[i].sex,
    num_count: rows[i].num_count,
    deactive_date: null,
  }));
}

/** Inserts abundance rows of a collection in one statement, in the order given. */
async function insertAbundance(
  q: Queryable,
  collection: number,
  agency: number,
  rows: readonly AbundanceInput[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    abundanceInsertSql({
      collection: '$1',
      agency: '$2',
      species: '$3',
      sex: '$4',
      count: '$5',
      now: '$6',
    }),
    [collection, agency, ...abundanceColumns(rows), now],
  );
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

/** `insert into record_lure … returning id` of a collection's lure types, in input order. */
export const luresInsertSql = (at: InsertRefs & { lures: string }) =>
  `insert into record_lure (table_name, record_id, agency, lure, add_date)
     select 'collection', ${at.collection}, ${at.agency}, l.lure, ${at.now}
       from ${at.from ? `${at.from}, ` : ''}unnest(${at.lures}::int[]) with ordinality as l(lure, n)
      order by l.n
     returning id`;

/** The lure records written, from the ids their insert drew (in any order). */
export function luresWritten(
  ids: readonly number[],
  collection: number,
  agency: number,
  lures: readonly number[],
  now: Date,
): Row[] {
  return idsInInputOrder(ids).map((id, i) => ({
    id,
    add_date: now,
    table_name: 'collection',
    record_id: collection,
    agency,
    lure: lures[i],
    deactive_date: null,
  }));
}

/** Inserts lure records of a collection in one statement, in the order given. */
async function insertLures(
  q: Queryable,
  collection: number,
  agency: number,
  lures: readonly number[],
  now: Date,
): Promise<void> {
  if (lures.length === 0) return;
  await q.query(luresInsertSql({ collection: '$1', agency: '$2', lures: '$3', now: '$4' }), [
    collection,
    agency,
    [...lures],
    now,
  ]);
}
