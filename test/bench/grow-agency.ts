import type { Queryable } from '../../src/server/db/database';
import {
  METHOD_ID,
  PRECISION_ID,
  SEX_ID,
  SPECIES_ID,
  STATUS_ID,
  TARGET_ID,
  TRAP_ID,
} from '../../src/server/records/seed/lookup-data';

export type GrownAgency = { sites: number[]; collections: number; newestDate: string };

/** Collections a busy district files per day: the history grows, the daily rate does not. */
export const COLLECTIONS_PER_DAY = 20;
/** Trap sites of the grown agency (few, so a site-filtered page is full even at 1,000). */
export const SITE_COUNT = 8;

/**
 * Gives agency 1 (seeded demo agencies and lookups expected) a surveillance history of
 * `collections` collections at a constant daily rate ending at `now`, each with three abundance
 * rows, a lure, one pool and one test of the pool, at `SITE_COUNT` sites. Bulk SQL with
 * generate_series: 50,000 collections take seconds, not minutes of requests. Data, not a test of
 * the write paths.
 */
export async function growAgency(
  db: Queryable,
  collections: number,
  now: Date,
): Promise<GrownAgency> {
  const { rows: sites } = await db.query<{ id: number }>(
    `insert into site (agency, user_id, code, name, coordinate_precision, lon, lat)
     select 1, 2, lpad((800000 + g)::text, 6, '0'), 'Scale site ' || g, $1, -121.5 + g * 0.01, 38.5
       from generate_series(1, $2::int) g
     returning id`,
    [PRECISION_ID.gps, SITE_COUNT],
  );
  const siteIds = sites.map((s) => s.id);
  const end = now.getTime();
  // Collection g (1..n) is dated (n - g) / rate days before now: the newest is today.
  await db.query(
    `insert into collection (agency, user_id, site, collection_date, collection_date_date_only,
        collection_num, num_trap, surv_year, trap, trap_nights, identified_by, add_date, updated)
     select 1, 2, ($1::int[])[1 + g % array_length($1::int[], 1)], d, false,
            100000 + g, 1, extract(year from d at time zone 'UTC')::int, $2, 1, 'Bench', d, d
       from (select g, to_timestamp(($3::float8 - ($4::int - g) * 86400000.0 / $5) / 1000) as d
               from generate_series(1, $4::int) g) s`,
    [siteIds, TRAP_ID.co2, end, collections, COLLECTIONS_PER_DAY],
  );
  const { rows: range } = await db.query<{ lo: number; hi: number; newest: Date }>(
    `select min(id) as lo, max(id) as hi, max(collection_date) as newest
       from collection where collection_num > 100000`,
  );
  const { lo, hi } = range[0];
  const abundance = [
    [SPECIES_ID.cxTarsalis, SEX_ID.fMixed],
    [SPECIES_ID.cxTarsalis, SEX_ID.male],
    [SPECIES_ID.cxPipiens, SEX_ID.fMixed],
  ];
  for (const [species, sex] of abundance) {
    await db.query(
      `insert into abundance (collection, agency, species, sex, num_count, add_date)
       select id, 1, $3, $4, 1 + id % 60, add_date from collection where id between $1 and $2`,
      [lo, hi, species, sex],
    );
  }
  await db.query(
    `insert into record_lure (table_name, record_id, agency, lure, add_date)
     select 'collection', id, 1, 1, add_date from collection where id between $1 and $2`,
    [lo, hi],
  );
  await db.query(
    `insert into pool (agency, user_id, collection, site, surv_year, pool_num, num_count, species,
        sex, collection_date, trap, add_date, updated)
     select 1, 2, id, site, surv_year, collection_num, 50, $3, $4, collection_date, trap,
            add_date, updated
       from collection where id between $1 and $2`,
    [lo, hi, SPECIES_ID.cxTarsalis, SEX_ID.fMixed],
  );
  await db.query(
    `insert into pool_test (agency, user_id, pool, method, target, status, test_date, test_agency,
        add_date, updated)
     select 1, 2, p.id, $3, $4, $5, p.collection_date + interval '2 days', 3, p.add_date, p.updated
       from pool p join collection c on c.id = p.collection where c.id between $1 and $2`,
    [lo, hi, METHOD_ID.rtPcr, TARGET_ID.wnv, STATUS_ID.negative],
  );
  return {
    sites: siteIds,
    collections,
    newestDate: new Date(range[0].newest).toISOString(),
  };
}
