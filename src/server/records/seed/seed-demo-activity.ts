import type { Queryable } from '../../db/database';
import type { SeededSite } from './seed-demo-sites';
import {
  LURES,
  METHOD_ID,
  PRECISION_ID,
  SEX_ID,
  SPECIES_ID,
  STATUS_ID,
  TARGET_ID,
  TRAP_ID,
} from './lookup-data';

/** Small deterministic PRNG (mulberry32): the demo looks the same on every install. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type SeededActivity = { collections: number; pools: number; tests: number };

const DAY = 86_400_000;
const DRY_ICE = LURES[0].id;
const HAY_INFUSION = LURES[3].id;

/**
 * A few weeks of agency 1 surveillance: weekly overnight trap collections at a rotating set of
 * sites with abundance rows, Culex pools drawn from the larger catches, and WNV RT-PCR tests at
 * the outside laboratory (agency 3), mostly negative with a few positives late in the season.
 * Inserted with SQL: demo data, not requests.
 */
export async function seedDemoActivity(
  db: Queryable,
  sites: SeededSite[],
  now: Date,
  weeks = 4,
): Promise<SeededActivity> {
  const random = prng(20260714);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const numbers = new Map<number, { collection: number; pool: number }>();
  const next = (year: number, kind: 'collection' | 'pool') => {
    const n = numbers.get(year) ?? { collection: 0, pool: 0 };
    n[kind] += 1;
    numbers.set(year, n);
    return n[kind];
  };
  let collections = 0;
  let pools = 0;
  let tests = 0;

  // Collections are picked up on Tuesday mornings.
  const lastTuesday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  while (lastTuesday.getUTCDay() !== 2 || lastTuesday.getTime() > now.getTime() - DAY)
    lastTuesday.setTime(lastTuesday.getTime() - DAY);

  for (let w = weeks - 1; w >= 0; w--) {
    const date = new Date(lastTuesday.getTime() - w * 7 * DAY + 15 * 3600_000); // 08:00 PDT
    const year = date.getUTCFullYear();
    const weekSites = sites.filter((_, i) => (i + w) % 2 === 0).slice(0, 14);
    for (const site of weekSites) {
      const gravid = site.gravid;
      const trap = gravid ? TRAP_ID.gravid : TRAP_ID.co2;
      const { rows: loc } = await db.query<{ id: number }>(
        `insert into location (table_name, agency, lon, lat, coordinate_precision) values ('collection', 1, $1, $2, $3) returning id`,
        [site.lon, site.lat, PRECISION_ID.gps],
      );
      const { rows: col } = await db.query<{ id: number }>(
        `insert into collection (agency, user_id, site, location, collection_date, collection_date_date_only, collection_num,
           num_trap, surv_year, trap, trap_nights, trap_problem_bit, identified_by, comments, add_date, updated)
         values (1, 2, $1, $2, $3, false, $4, 1, $5, $6, 1, $7, 'Sam Okafor', $8, $3, $3) returning id`,
        [
          site.id,
          loc[0].id,
          date.toISOString(),
          next(year, 'collection'),
          year,
          trap,
          random() < 0.04,
          random() < 0.15 ? 'Heavy irrigation runoff nearby' : null,
        ],
      );
      const collection = col[0].id;
      await db.query('update location set record_id = $1 where id = $2', [collection, loc[0].id]);
      await db.query(
        `insert into record_lure (table_name, record_id, agency, lure, add_date) values ('collection', $1, 1, $2, $3)`,
        [collection, gravid ? HAY_INFUSION : DRY_ICE, date.toISOString()],
      );
      collections += 1;

      // Gravid traps catch mostly Culex pipiens / quinquefasciatus; CO2 traps Cx tarsalis and floodwater Aedes.
      const counts: [number, number, number][] = gravid
        ? [
            [SPECIES_ID.cxPipiens, SEX_ID.fGravid, int(5, 80)],
            [SPECIES_ID.cxQuinque, SEX_ID.fGravid, int(0, 20)],
            [SPECIES_ID.cxTarsalis, SEX_ID.fGravid, int(0, 12)],
          ]
        : [
            [SPECIES_ID.cxTarsalis, SEX_ID.fMixed, int(10, 220)],
            [SPECIES_ID.cxTarsalis, SEX_ID.male, int(0, 30)],
            [SPECIES_ID.cxPipiens, SEX_ID.fMixed, int(0, 45)],
            [SPECIES_ID.aeVexans, SEX_ID.fMixed, int(0, 60)],
            [SPECIES_ID.anFreeborni, SEX_ID.fMixed, int(0, 8)],
            [SPECIES_ID.csInornata, SEX_ID.fMixed, int(0, 5)],
          ];
      for (const [species, sex, n] of counts) {
        if (n === 0) continue;
        await db.query(
          `insert into abundance (collection, agency, species, sex, num_count, add_date) values ($1, 1, $2, $3, $4, $5)`,
          [collection, species, sex, n, date.toISOString()],
        );
        // Culex females are pooled in up to 50 for arbovirus testing.
        const poolable =
          (species === SPECIES_ID.cxTarsalis || species === SPECIES_ID.cxPipiens) &&
          sex !== SEX_ID.male &&
          n >= 20;
        if (!poolable) continue;
        const poolCount = Math.min(50, n);
        const { rows: pool } = await db.query<{ id: number }>(
          `insert into pool (agency, user_id, collection, site, location, surv_year, pool_num, num_count, species, sex,
             primary_source_bit, primary_source, collection_date, trap, add_date, updated)
           values (1, 2, $1, $2, $3, $4, $5, $6, $7, $8, true, $1, $9, $10, $11, $11) returning id`,
          [
            collection,
            site.id,
            loc[0].id,
            year,
            next(year, 'pool'),
            poolCount,
            species,
            sex,
            date.toISOString(),
            trap,
            new Date(date.getTime() + 3600_000).toISOString(),
          ],
        );
        pools += 1;
        const testDate = new Date(date.getTime() + 2 * DAY);
        if (testDate.getTime() > now.getTime()) continue; // still at the lab
        const positive = w <= 1 && random() < 0.12;
        await db.query(
          `insert into pool_test (agency, user_id, pool, method, target, status, test_date, test_agency, value, add_date, updated)
           values (1, 1, $1, $2, $3, $4, $5, 3, $6, $5, $5)`,
          [
            pool[0].id,
            METHOD_ID.rtPcr,
            TARGET_ID.wnv,
            positive ? STATUS_ID.confirmed : STATUS_ID.negative,
            testDate.toISOString(),
            positive ? Number((24 + random() * 10).toFixed(1)) : null,
          ],
        );
        tests += 1;
      }
    }
  }
  return { collections, pools, tests };
}
