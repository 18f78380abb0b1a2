import type { Queryable, Row } from '../../db/database';
import { isoDate } from '../common/iso-date';
import { LOCATION_COLUMNS, locationRecord } from '../common/location-record';

/** A lure used with a record (contract §6 create response shape). */
export function lureRecord(r: Row): Row {
  return {
    id: r.id,
    add_date: isoDate(r.add_date),
    table_name: r.table_name,
    record_id: r.record_id,
    agency: r.agency,
    lure: r.lure,
    deactive_date: isoDate(r.deactive_date),
  };
}

/** An abundance row of a collection (interface: id, collection, agency, deactive_date added). */
export function abundanceRecord(r: Row): Row {
  return {
    id: r.id,
    collection: r.collection,
    agency: r.agency,
    species: r.species,
    sex: r.sex,
    num_count: r.num_count,
    deactive_date: isoDate(r.deactive_date),
  };
}

/** Active lure records of collections, by collection ID, oldest first. */
export async function activeLures(
  q: Queryable,
  collectionIds: number[],
): Promise<Map<number, Row[]>> {
  const { rows } = await q.query(
    `select * from record_lure where table_name = 'collection' and record_id = any($1::int[])
       and deactive_date is null order by id`,
    [collectionIds],
  );
  return groupBy(rows.map(lureRecord), 'record_id');
}

/** Active abundance rows of collections, by collection ID. */
export async function activeAbundance(
  q: Queryable,
  collectionIds: number[],
): Promise<Map<number, Row[]>> {
  const { rows } = await q.query(
    // The columns abundanceRecord answers, not add_date: a list page reads ~150 of these rows,
    // and each timestamp is a Date parsed for nothing.
    `select id, collection, agency, species, sex, num_count, deactive_date from abundance
      where collection = any($1::int[]) and deactive_date is null order by id`,
    [collectionIds],
  );
  return groupBy(rows.map(abundanceRecord), 'collection');
}

function groupBy(rows: Row[], key: string): Map<number, Row[]> {
  const out = new Map<number, Row[]>();
  for (const r of rows) {
    const k = r[key] as number;
    out.set(k, [...(out.get(k) ?? []), r]);
  }
  return out;
}

/**
 * A collection as the service answers it (contract §6), from its row selected with
 * LOCATION_COLUMNS and its active lure records and abundance rows (already serialised).
 */
export function collectionRecord(c: Row, lures: Row[], arthropods: Row[]): Row {
  return {
    id: c.id,
    agency: c.agency,
    user: c.user_id,
    site: c.site,
    location: locationRecord(c),
    collection_date: isoDate(c.collection_date),
    collection_date_date_only: c.collection_date_date_only,
    collection_num: c.collection_num,
    comments: c.comments,
    identified_by: c.identified_by,
    num_trap: c.num_trap,
    surv_year: c.surv_year,
    trap: c.trap,
    trap_nights: c.trap_nights,
    trap_problem_bit: c.trap_problem_bit,
    lures,
    arthropods,
    add_date: isoDate(c.add_date),
    updated: isoDate(c.updated),
    deactive_date: isoDate(c.deactive_date),
  };
}

/**
 * Collections of the agency by ID, serialised with `id` first, their location record, active
 * lure records and active abundance rows, in the order of `ids` (missing IDs are skipped: an
 * ID of another agency is indistinguishable from none).
 */
export async function collectionRecords(
  q: Queryable,
  agency: number,
  ids: number[],
): Promise<Row[]> {
  if (ids.length === 0) return [];
  const { rows } = await q.query(
    `select c.*, ${LOCATION_COLUMNS} from collection c left join location l on l.id = c.location
      where c.agency = $1 and c.id = any($2::int[])`,
    [agency, ids],
  );
  const lures = await activeLures(q, ids);
  const arthropods = await activeAbundance(q, ids);
  const byId = new Map(
    rows.map((c) => [
      c.id as number,
      collectionRecord(c, lures.get(c.id as number) ?? [], arthropods.get(c.id as number) ?? []),
    ]),
  );
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id) as Row] : []));
}
