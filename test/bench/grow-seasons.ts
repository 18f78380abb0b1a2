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

export type GrownSeasons = {
  years: number[];
  sites: number;
  collections: number;
  abundanceRows: number;
  pools: number;
  poolTests: number;
};

/** Trap sites of the district: a season spreads ~93 collections a day over them. */
const SITE_COUNT = 40;
/** A season runs from 1 April for this many days (to 31 October). */
const SEASON_DAYS = 214;

/**
 * (species, sex) pairs an abundance row can carry; a collection takes 1–5 consecutive ones from a
 * random start, so its rows never repeat a pair and every season sees every pair.
 */
const CATCH: Array<[number, number]> = [
  [SPECIES_ID.cxTarsalis, SEX_ID.fMixed],
  [SPECIES_ID.cxTarsalis, SEX_ID.male],
  [SPECIES_ID.cxPipiens, SEX_ID.fGravid],
  [SPECIES_ID.cxPipiens, SEX_ID.fMixed],
  [SPECIES_ID.cxQuinque, SEX_ID.fUnfed],
  [SPECIES_ID.csInornata, SEX_ID.fMixed],
  [SPECIES_ID.aeVexans, SEX_ID.fBloodfed],
  [SPECIES_ID.anFreeborni, SEX_ID.fMixed],
  [SPECIES_ID.cxTarsalis, SEX_ID.fBloodfed],
  [SPECIES_ID.cxPipiens, SEX_ID.male],
];

/**
 * A pseudo-random integer in [0, n) from a row's id and a salt: the same on every run, so two
 * runs grow the same district. SQL text, interpolated only with literals of this file.
 */
const pick = (id: string, salt: number, n: number) =>
  `((hashint4((${id}) * 16 + ${salt}) & 2147483647) % ${n})`;
/** 0.15 at the ends of a season and 1.15 at its height (mid-July): mosquitoes follow the heat. */
const seasonal = (date: string) =>
  `(0.15 + sin(pi() * (${date}::date - make_date(extract(year from ${date})::int, 4, 1)) / ${SEASON_DAYS}.0))`;

/**
 * Gives agency 1 (seeded demo agencies and lookups expected) `years.length` seasons of
 * surveillance, each with `perSeason` collections dated evenly from 1 April to 31 October at
 * `SITE_COUNT` sites (CO2, gravid, BG-Sentinel and NJLT traps with their lures; mostly one trap
 * night, some two or three; 2 % with a trap problem), 1–5 abundance rows each (3 on average, ten
 * species/sex pairs, counts peaking mid-season, some 0), and a pool drawn from every other
 * collection (`perSeason / 2` a season; four species/sex pairs, 5–50 mosquitoes) with its tests:
 * WNV on every pool, a same-day WNV retest on 8 %, SLEV on 40 %, WEEV on 25 %; WNV positives
 * rising through the season (~2.5 %), a few pending and presumptive results. Bulk SQL with
 * generate_series: data, not a test of the write paths.
 */
export async function growSeasons(
  db: Queryable,
  years: readonly number[],
  perSeason: number,
): Promise<GrownSeasons> {
  await db.query(
    `insert into site (agency, user_id, code, name, coordinate_precision, lon, lat)
     select 1, 2, lpad((810000 + g)::text, 6, '0'), 'Season site ' || g, $1,
            -121.7 + (g % 8) * 0.05, 38.3 + (g / 8) * 0.05
       from generate_series(1, $2::int) g`,
    [PRECISION_ID.gps, SITE_COUNT],
  );
  const { rows: siteRows } = await db.query<{ id: number }>(
    `select id from site where agency = 1 and code like '81%' order by id`,
  );
  const sites = siteRows.map((s) => s.id);

  // Collection i (0-based) of a season is dated i·SEASON_DAYS/perSeason days after 1 April.
  await db.query(
    `insert into collection (agency, user_id, site, collection_date, collection_date_date_only,
        collection_num, num_trap, surv_year, trap, trap_nights, trap_problem_bit, identified_by,
        add_date, updated)
     select 1, 2, ($1::int[])[1 + ${pick('g', 1, SITE_COUNT)}], d, true, 700000 + i,
            case when ${pick('g', 2, 100)} < 92 then 1 else 2 end, y,
            case when ${pick('g', 3, 100)} < 60 then $2::int
                 when ${pick('g', 3, 100)} < 85 then $3::int
                 when ${pick('g', 3, 100)} < 95 then $4::int else $5::int end,
            case when ${pick('g', 4, 100)} < 90 then 1
                 when ${pick('g', 4, 100)} < 97 then 2 else 3 end,
            ${pick('g', 5, 100)} < 2, 'Bench', d, d
       from (select g, y, i,
                    (make_date(y, 4, 1) + (i * ${SEASON_DAYS} / $7::int))::timestamp
                      at time zone 'UTC' as d
               from (select g, ($6::int[])[1 + (g - 1) / $7::int] as y, (g - 1) % $7::int as i
                       from generate_series(1, $7::int * array_length($6::int[], 1)) g) s) t`,
    [sites, TRAP_ID.co2, TRAP_ID.gravid, TRAP_ID.bgSentinel, TRAP_ID.njlt, years, perSeason],
  );
  const scope = `c.agency = 1 and c.collection_num >= 700000`;

  await db.query(
    `insert into abundance (collection, agency, species, sex, num_count, add_date)
     select c.id, 1, ($1::int[])[1 + pair], ($2::int[])[1 + pair],
            floor(${pick('c.id * 5 + k', 7, 80)} * ${seasonal('c.collection_date')})::int,
            c.add_date
       from collection c
       cross join generate_series(0, 4) k
       cross join lateral (select (${pick('c.id', 6, CATCH.length)} + k) % ${CATCH.length} as pair) p
      where ${scope} and k <= ${pick('c.id', 8, 5)}`,
    [CATCH.map(([s]) => s), CATCH.map(([, x]) => x)],
  );

  // Lures by trap: dry ice for CO2 (a fifth with octenol too), hay infusion for gravid traps,
  // BG-Lure for BG-Sentinels; NJLT traps are light only.
  await db.query(
    `insert into record_lure (table_name, record_id, agency, lure, add_date)
     select 'collection', c.id, 1, l.lure, c.add_date
       from collection c
       join (values ($1::int, 1), ($1::int, 3), ($2::int, 4), ($3::int, 2)) l(trap, lure)
         on l.trap = c.trap
      where ${scope} and (l.lure <> 3 or ${pick('c.id', 9, 5)} = 0)`,
    [TRAP_ID.co2, TRAP_ID.gravid, TRAP_ID.bgSentinel],
  );

  await db.query(
    `insert into pool (agency, user_id, collection, site, surv_year, pool_num, num_count, species,
        sex, collection_date, trap, add_date, updated)
     select 1, 2, c.id, c.site, c.surv_year, c.collection_num, 5 + ${pick('c.id', 10, 46)},
            case when ${pick('c.id', 11, 100)} < 55 then $1::int
                 when ${pick('c.id', 11, 100)} < 85 then $2::int
                 when ${pick('c.id', 11, 100)} < 95 then $3::int else $1::int end,
            case when ${pick('c.id', 11, 100)} < 55 then $4::int
                 when ${pick('c.id', 11, 100)} < 85 then $4::int
                 when ${pick('c.id', 11, 100)} < 95 then $5::int else $6::int end,
            c.collection_date, c.trap, c.add_date, c.updated
       from collection c
      where ${scope} and c.collection_num % 2 = 0`,
    [
      SPECIES_ID.cxTarsalis,
      SPECIES_ID.cxPipiens,
      SPECIES_ID.cxQuinque,
      SEX_ID.fMixed,
      SEX_ID.fUnfed,
      SEX_ID.male,
    ],
  );

  // Test slots: WNV always; a same-day WNV retest (RAMP), SLEV and WEEV on some pools. A WNV
  // positive's chance grows with the season (0.5 % in April to ~6.5 % in October).
  await db.query(
    `insert into pool_test (agency, user_id, pool, method, target, status, test_date, test_agency,
        add_date, updated)
     select 1, 2, p.id, t.method, t.target,
            case when ${pick('p.id * 4 + t.slot', 12, 1000)} < t.positive * (case when t.target = $2
                   then 1 + 12 * power((p.collection_date::date
                     - make_date(p.surv_year, 4, 1)) / ${SEASON_DAYS}.0, 2) else 1 end)
                   then $5::int
                 when ${pick('p.id * 4 + t.slot', 13, 100)} < 2 then $6::int
                 when ${pick('p.id * 4 + t.slot', 13, 100)} < 3 then $7::int
                 else $8::int end,
            p.collection_date + interval '2 days', 3, p.add_date, p.updated
       from pool p
       cross join (values (0, $1::int, $2::int, 1000, 5), (1, $9::int, $2::int, 80, 5),
                          (2, $1::int, $3::int, 400, 5), (3, $1::int, $4::int, 250, 3))
                  t(slot, method, target, share, positive)
      where p.agency = 1 and p.pool_num >= 700000
        and ${pick('p.id * 4 + t.slot', 14, 1000)} < t.share`,
    [
      METHOD_ID.rtPcr,
      TARGET_ID.wnv,
      TARGET_ID.slev,
      TARGET_ID.weev,
      STATUS_ID.confirmed,
      STATUS_ID.pending,
      STATUS_ID.presumptive,
      STATUS_ID.negative,
      METHOD_ID.ramp,
    ],
  );

  const { rows } = await db.query<{
    collections: number;
    abundance: number;
    pools: number;
    tests: number;
  }>(
    `select (select count(*)::int from collection c where ${scope}) as collections,
            (select count(*)::int from abundance a join collection c on c.id = a.collection
              where ${scope}) as abundance,
            (select count(*)::int from pool where agency = 1 and pool_num >= 700000) as pools,
            (select count(*)::int from pool_test t join pool p on p.id = t.pool
              where p.agency = 1 and p.pool_num >= 700000) as tests`,
  );
  const counts = rows[0];
  return {
    years: [...years],
    sites: sites.length,
    collections: counts.collections,
    abundanceRows: counts.abundance,
    pools: counts.pools,
    poolTests: counts.tests,
  };
}
